/**
 * The call runner: a Python program run as `python3 -c RUNNER_SOURCE <script> <marker> <args JSON> <tuple names JSON>`
 * (or from a file through `uv run --script`, behind the script's PEP 723 block). It imports the script by
 * path as a module named `__skill_script__` (so an `if __name__ == "__main__":` block does not run), with
 * the script's folder first on `sys.path` as `python3 script.py` would have it, calls `main(**args)`
 * (awaiting a coroutine), and writes the return value as JSON after a line holding `marker`: whatever the
 * script printed comes before it. A value JSON cannot hold is sent as `str(value)`. Exceptions print their
 * traceback on stderr and exit 1; `sys.exit` inside the script keeps its code.
 */
export const RUNNER_SOURCE = String.raw`
import sys


def _skillctx_call():
    import importlib.util, inspect, json, os, traceback
    script, marker, payload, tuples = sys.argv[1:5]
    args = json.loads(payload)
    for name in json.loads(tuples):
        if isinstance(args.get(name), list):
            args[name] = tuple(args[name])
    sys.argv = [script]
    sys.path.insert(0, os.path.dirname(script))
    spec = importlib.util.spec_from_file_location("__skill_script__", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules["__skill_script__"] = module
    try:
        spec.loader.exec_module(module)
        main = getattr(module, "main", None)
        if not callable(main):
            sys.stderr.write("%s defines no main()\n" % script)
            return 3
        value = main(**args)
        if inspect.isawaitable(value):
            import asyncio

            async def wait(awaitable):
                return await awaitable

            value = asyncio.run(wait(value))
    except SystemExit:
        raise
    except BaseException:
        traceback.print_exc()
        return 1
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
    except Exception:
        text = json.dumps(str(value), ensure_ascii=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(json.loads(text)).encode("ascii")
    for stream in (sys.stdout, sys.__stdout__):
        try:
            stream.flush()
        except Exception:
            pass
    data = b"\n" + marker.encode("ascii") + b"\n" + data + b"\n"
    while data:
        data = data[os.write(1, data):]
    return 0


sys.exit(_skillctx_call())
`;
