const { AgentContext } = await import("skillctx");
const t0=performance.now();
const ctx = await AgentContext.create({ cwd: process.argv[3], skills: [process.argv[2]], sources: { persistentCache: { dir: process.argv[4] } } });
const t1=performance.now();
const n = ctx.catalog?.included.length ?? 0;
const t2=performance.now();
await ctx.close();
const t3=performance.now();
console.log("create",(t1-t0).toFixed(1),"catalog",(t2-t1).toFixed(1),"close",(t3-t2).toFixed(1), n);
