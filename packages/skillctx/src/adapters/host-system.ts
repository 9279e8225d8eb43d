/**
 * The one rule of every adapter for a system prompt the host gave its framework (an OpenAI Agents
 * agent's `instructions`, a LangChain agent's `systemPrompt`, the AI SDK's `system`): it is kept, first,
 * and the context's `system` follows it after a blank line. Replacing it would drop the host's words
 * without a sign; the recommended place for them is still the context's `systemPrompt`.
 */
export function withHostSystem(host: string | undefined, system: string): string {
  if (host === undefined || host.trim() === "") return system;
  return system === "" ? host : `${host}\n\n${system}`;
}
