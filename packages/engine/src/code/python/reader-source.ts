/**
 * The signature reader: a Python program run as `python3 -I -B -c READER_SOURCE <maxBytes> (<path> <sha256>)...`.
 * It parses each file with the interpreter's own `ast` module and never executes it: no import of the
 * script, no evaluation of annotations or defaults (only `ast.literal_eval` of literal defaults). Each
 * file is read again by path and must hash to the digest the caller read through core's `readTextFile`
 * (containment, caps), so what is parsed is what was checked. `-I` keeps the working folder, user site
 * and `PYTHON*` variables out of `sys.path`; the program imports only the standard library.
 *
 * Output: one JSON document `{ "files": [...] }` on stdout, one entry per file, in order. Strings and
 * lists are cut inside Python (`MAX_*` below), annotations are cut at a depth, so the answer stays small.
 */
export const READER_SOURCE = String.raw`
import ast, hashlib, json, os, stat, sys

MAX_DEPTH = 16
MAX_ITEMS = 64
MAX_PARAMS = 128
MAX_TEXT = 200
MAX_STR = 1000
MAX_DOC = 16384
MAX_DEFAULT = 10000


def text(node):
    try:
        s = ast.unparse(node)
    except Exception:
        s = type(node).__name__
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "..."


def other(node, why=None):
    out = {"k": "other", "text": text(node) if node is not None else ""}
    if why:
        out["why"] = why
    return out


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute) and len(parts) < MAX_DEPTH:
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def items_of(node):
    out = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and len(out) <= MAX_ITEMS:
        out.append(node.right)
        node = node.left
    out.append(node)
    out.reverse()
    return out


def ann(node, depth):
    if depth > MAX_DEPTH:
        return other(None, "nested more than %d levels deep" % MAX_DEPTH)
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, str):
            out = {"k": "str", "v": v[:MAX_STR]}
            if len(v) <= MAX_STR:
                try:
                    out["parsed"] = ann(ast.parse(v.strip(), mode="eval").body, depth + 1)
                except Exception:
                    pass
            return out
        if v is Ellipsis:
            return {"k": "ellipsis"}
        if v is None or isinstance(v, bool):
            return {"k": "const", "v": v}
        if isinstance(v, int) and abs(v) <= 2 ** 53:
            return {"k": "const", "v": v}
        if isinstance(v, float) and v == v and abs(v) != float("inf"):
            return {"k": "const", "v": v}
        return other(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        v = node.operand.value
        if type(v) in (int, float) and v == v and abs(v) <= 2 ** 53:
            return {"k": "const", "v": -v}
        return other(node)
    name = dotted(node)
    if name is not None:
        return {"k": "name", "id": name}
    if isinstance(node, ast.Subscript):
        sl = node.slice
        if sys.version_info < (3, 9) and isinstance(sl, getattr(ast, "Index", ())):
            sl = sl.value
        args = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if len(args) > MAX_ITEMS:
            return other(node, "more than %d type arguments" % MAX_ITEMS)
        return {"k": "sub", "base": ann(node.value, depth + 1), "args": [ann(a, depth + 1) for a in args], "text": text(node)}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        members = items_of(node)
        if len(members) > MAX_ITEMS:
            return other(node, "more than %d union members" % MAX_ITEMS)
        return {"k": "or", "args": [ann(m, depth + 1) for m in members], "text": text(node)}
    if isinstance(node, (ast.List, ast.Tuple)):
        if len(node.elts) > MAX_ITEMS:
            return other(node, "more than %d items" % MAX_ITEMS)
        return {"k": "list", "items": [ann(e, depth + 1) for e in node.elts]}
    return other(node)


def default(node):
    if node is None:
        return None
    try:
        s = json.dumps(ast.literal_eval(node), allow_nan=False)
        if len(s) <= MAX_DEFAULT:
            return {"json": json.loads(s)}
    except Exception:
        pass
    return {"expr": text(node)}


def param(arg, kind, dflt):
    out = {"name": arg.arg, "kind": kind, "line": arg.lineno}
    if arg.annotation is not None:
        out["annotation"] = ann(arg.annotation, 0)
        out["text"] = text(arg.annotation)
    d = default(dflt)
    if d is not None:
        out["default"] = d
    return out


def signature(fn):
    a = fn.args
    positional = list(getattr(a, "posonlyargs", [])) + list(a.args)
    count = len(positional) + len(a.kwonlyargs) + (1 if a.vararg else 0) + (1 if a.kwarg else 0)
    if count > MAX_PARAMS:
        return {"line": fn.lineno, "tooMany": count}
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    only = len(getattr(a, "posonlyargs", []))
    params = []
    for i, arg in enumerate(positional):
        params.append(param(arg, "positional_only" if i < only else "positional_or_keyword", defaults[i]))
    if a.vararg:
        params.append(param(a.vararg, "var_positional", None))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append(param(arg, "keyword_only", d))
    if a.kwarg:
        params.append(param(a.kwarg, "var_keyword", None))
    doc = ast.get_docstring(fn, clean=True)
    out = {
        "line": fn.lineno,
        "async": isinstance(fn, ast.AsyncFunctionDef),
        "params": params,
        "decorators": [text(d) for d in fn.decorator_list[:8]],
        "doc": doc[:MAX_DOC] if doc else None,
    }
    if fn.returns is not None:
        out["returns"] = text(fn.returns)
    return out


def read(path, digest, limit):
    try:
        # Non-blocking open and a regular-file check: a FIFO swapped in after the caller's check never blocks.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return {"ok": False, "error": "not a regular file"}
            data = f.read(limit + 1)
    except OSError as e:
        return {"ok": False, "error": "cannot read: %s" % (e.strerror or e)}
    if len(data) > limit or hashlib.sha256(data).hexdigest() != digest:
        return {"ok": False, "error": "the file changed while its signature was read"}
    try:
        tree = ast.parse(data.decode("utf-8-sig"), filename=path)
    except SyntaxError as e:
        return {"ok": False, "error": "%s: %s" % (type(e).__name__, e.msg), "line": e.lineno}
    except (RecursionError, MemoryError, ValueError) as e:
        return {"ok": False, "error": "%s: %s" % (type(e).__name__, str(e)[:MAX_TEXT])}
    doc = ast.get_docstring(tree, clean=True)
    main = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "main":
            main = node
    out = {"ok": True, "moduleDoc": doc[:MAX_DOC] if doc else None, "main": None}
    if main is not None:
        try:
            out["main"] = signature(main)
        except (RecursionError, MemoryError) as e:
            return {"ok": False, "error": "%s while reading main()" % type(e).__name__}
    return out


def run():
    limit = int(sys.argv[1])
    rest = sys.argv[2:]
    files = []
    for i in range(0, len(rest) - 1, 2):
        try:
            files.append(read(rest[i], rest[i + 1], limit))
        except Exception as e:
            files.append({"ok": False, "error": "%s: %s" % (type(e).__name__, str(e)[:MAX_TEXT])})
    sys.stdout.write(json.dumps({"files": files}))


run()
`;
