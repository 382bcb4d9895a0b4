#!/usr/bin/env python3
"""Writes the function table and wrappers of a C library that Lectern loads on first use (#28).

    python3 Packaging/make-dlopen-shim.py PREFIX HEADER[,HEADER...] SONAME FUNCTION...

prints, for shim.h, a table with one pointer per function (typed with __typeof__ of the
installed header's declaration, so it cannot disagree with it), a loader that fills it once
(pthread_once: any thread may make the first call) and one `lectern_<function>` wrapper each,
whose parameter types are read from clang's AST of the header. Used for libzip and libcrypto,
whose call sites are many and mechanical; the smaller shims (libmobi, cmark-gfm...) are written
by hand.
"""
import json
import subprocess
import sys


def declaration(header: str, name: str) -> tuple[str, list[str], bool]:
    """The return type, the parameter types and whether it is variadic, from clang's AST."""
    source = "".join(f"#include <{one}>\n" for one in header.split(","))
    output = subprocess.run(["clang", "-fsyntax-only", "-Xclang", "-ast-dump=json",
                             f"-Xclang", f"-ast-dump-filter={name}", "-x", "c", "-"],
                            input=source, capture_output=True, text=True, check=True).stdout
    decoder, position = json.JSONDecoder(), 0
    while position < len(output):
        while position < len(output) and output[position].isspace():
            position += 1
        if position >= len(output):
            break
        node, position = decoder.raw_decode(output, position)
        if node.get("kind") == "FunctionDecl" and node.get("name") == name:
            whole = node["type"]["qualType"]
            parameters = [inner["type"]["qualType"] for inner in node.get("inner", []) if inner["kind"] == "ParmVarDecl"]
            return whole.split("(")[0].strip(), parameters, node.get("variadic", False) or "..." in whole
    sys.exit(f"{name}: no declaration in {header}")


def main() -> None:
    prefix, header, soname, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    table, api = f"lectern_{prefix}_api_table", f"lectern_{prefix}_api"
    print(f"typedef struct {{\n    int loaded;")
    for name in names:
        print(f"    __typeof__({name}) *{name};")
    print(f"}} {api};\n")
    print("// One table and one flag for the whole program (a `static` would give each Swift file its own");
    print("// copy); the weak definitions are merged into one by the linker.")
    print(f"__attribute__((weak)) {api} {table} = {{0}};")
    print(f"__attribute__((weak)) pthread_once_t lectern_{prefix}_once = PTHREAD_ONCE_INIT;\n")
    print(f"static inline void lectern_{prefix}_load_once(void) {{")
    print(f"    void *handle = dlopen(\"{soname}\", RTLD_NOW | RTLD_LOCAL);")
    print(f"    if (!handle) {{ {table}.loaded = -1; return; }}")
    for name in names:
        print(f"    if (!({table}.{name} = (__typeof__({table}.{name}))dlsym(handle, \"{name}\"))) {{ {table}.loaded = -1; return; }}")
    print(f"    {table}.loaded = 1;\n}}\n")
    print(f"/// Loads the library once, from any thread; returns 1 when it is usable.")
    print(f"static inline int lectern_{prefix}_load(void) {{")
    print(f"    pthread_once(&lectern_{prefix}_once, lectern_{prefix}_load_once);")
    print(f"    return {table}.loaded > 0;\n}}\n")
    print(f"/// The table, loaded; a library that cannot be loaded ends the program with its name (it is")
    print(f"/// a dependency of the package: the Swift side checks `lectern_{prefix}_load()` where it can throw).")
    print(f"static inline {api} *lectern_{prefix}(void) {{")
    print(f"    if (!lectern_{prefix}_load()) {{")
    print(f"        const char *reason = dlerror();")
    print(f"        fprintf(stderr, \"lectern: cannot load {soname}: %s\\n\", reason ? reason : \"a function is missing\");")
    print(f"        abort();\n    }}")
    print(f"    return &{table};\n}}\n")
    for name in names:
        result, parameters, variadic = declaration(header, name)
        if variadic or any("(" in p or "[" in p for p in parameters):
            sys.exit(f"{name}: write its wrapper by hand ({result} {parameters})")
        if parameters == ["void"]:
            parameters = []
        formal = ", ".join(f"{p}{'' if p.endswith('*') else ' '}a{i}" for i, p in enumerate(parameters)) or "void"
        actual = ", ".join(f"a{i}" for i in range(len(parameters)))
        body = f"lectern_{prefix}()->{name}({actual});"
        print(f"static inline {result}{'' if result.endswith('*') else ' '}lectern_{name}({formal}) {{ "
              f"{'' if result == 'void' else 'return '}{body} }}")


if __name__ == "__main__":
    main()
