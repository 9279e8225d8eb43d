/**
 * What the skill tools run when called: loading a skill, reading its files, running its scripts and
 * sub-agents, searching. The toolsets import this with `import()` on their first call, so that importing
 * `skillctx` (whose `toolsets` export holds the tools' definitions) does not compile the engine's tool code;
 * a context has it loaded already (docs/performance.md, "Start-up").
 */
export { forkedLoad, executeSkill } from "./execute-skill.js";
export { formatLoadedSkill, loadSkill, skillNotes } from "./load-skill.js";
export { formatResource, readSkillResource } from "./read-skill-resource.js";
export { runSkillScript } from "./run-skill-script.js";
export { formatSearchResults } from "./search-skills.js";
