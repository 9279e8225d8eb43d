import { zod, type Zod } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import type { ToolDefinition } from "../context-types.js";
import type { SkillToolHost } from "./skill-tools.js";
import { parseToolArgs, toolInputSchema } from "../tool-kit/tool-args.js";
import type { ToolResult } from "./tool-provider.js";
import type { SkillTool } from "./toolset.js";

/**
 * Defines a skill tool from a zod schema: the JSON Schema comes from it, and calls are checked against
 * it. `schema` builds the schema from zod's `z` on first need (the definition's first read, or the
 * first call), so that defining the tools does not load zod.
 */
export function defineSkillTool<T>(options: {
  name: string;
  description: string;
  schema: (z: Zod) => z.ZodType<T>;
  run(args: T, host: SkillToolHost, signal: AbortSignal | undefined): Promise<ToolResult>;
}): SkillTool {
  let schema: z.ZodType<T> | undefined;
  let definition: ToolDefinition | undefined;
  const schemaOf = () => (schema ??= options.schema(zod()));
  return {
    get definition() {
      // The JSON Schema is made on its first read, not with the definition: a step that nobody sends to a
      // model (the CLI's `list`, `validate`) never loads zod. An own enumerable getter, so spreading and
      // JSON.stringify see a plain field.
      definition ??= {
        name: options.name,
        description: options.description,
        get inputSchema() {
          const inputSchema = toolInputSchema(schemaOf());
          Object.defineProperty(this, "inputSchema", { value: inputSchema, enumerable: true, writable: true });
          return inputSchema;
        },
      };
      return definition;
    },
    async call(args, host, signal) {
      const parsed = parseToolArgs(options.name, schemaOf(), args);
      return parsed.ok ? options.run(parsed.value, host, signal) : parsed.result;
    },
  };
}
