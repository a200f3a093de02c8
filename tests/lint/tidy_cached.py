#!/usr/bin/env python3
"""clang-tidy over a compile database, with results cached per translation unit.

A TU's findings depend only on its own text, the project headers it includes, its compile flags,
.clang-tidy and the clang-tidy version; the key hashes all of these (headers found with the
compiler's -MM, which lists every non-system header). A TU whose key is in the cache is not
re-analysed, so a lint run after a small change costs seconds, not the half hour a full run takes
on two cores. Prints the findings (deduplicated, project files only) and exits 1 if there are any.

  tidy_cached.py BUILD_DIR ROOT [-j N]
"""
import argparse, hashlib, json, os, re, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

TIDY = "clang-tidy-14"


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def dependencies(entry):
    """The project headers a TU includes, from the compiler's -MM (system headers are left out)."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    cleaned, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD"):
            continue
        cleaned.append(a)
    cmd = [c if not c.endswith("ccache") else "" for c in cleaned]
    cmd = [c for c in cmd if c]
    out = subprocess.run(cmd + ["-MM"], cwd=entry["directory"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, " ".join(cmd)
    text = out.stdout.replace("\\\n", " ")
    deps = text.split(":", 1)[1].split() if ":" in text else []
    return sorted(set(os.path.normpath(os.path.join(entry["directory"], d)) for d in deps)), " ".join(cmd)


def key_of(entry, root, version):
    """The key names paths relative to the checkout, so a clean clone elsewhere (CI) finds the
    results of the same code analysed in another checkout on this machine."""
    deps, cmd = dependencies(entry)
    h = hashlib.sha256()
    h.update(version.encode())
    h.update(file_bytes(os.path.join(root, ".clang-tidy")))
    h.update(cmd.replace(root, "<root>").encode())
    if deps is None:  # cannot list its headers: never cached
        return None
    for d in deps:
        h.update(d.replace(root, "<root>").encode())
        h.update(file_bytes(d))
    return h.hexdigest()


def run_tidy(entry, build, root):
    out = subprocess.run([TIDY, "-p", build, "-quiet", f"--header-filter=^{root}/(src|tests|bench)/", entry["file"]],
                         capture_output=True, text=True)
    pattern = re.compile(rf"^{re.escape(root)}/.*: (warning|error): ")
    findings = [l for l in (out.stdout + out.stderr).splitlines() if pattern.match(l)]
    return [l.replace(root + "/", "", 1) for l in findings]  # cached relative to the checkout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("root")
    ap.add_argument("-j", type=int, default=2)
    opts = ap.parse_args()
    root = os.path.realpath(opts.root)
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "hamcp-tidy")
    os.makedirs(cache, exist_ok=True)
    version = subprocess.run([TIDY, "--version"], capture_output=True, text=True).stdout
    with open(os.path.join(opts.build, "compile_commands.json")) as f:
        db = json.load(f)
    tus = [e for e in db if re.match(rf"^{re.escape(root)}/(src|tests|bench)/", os.path.realpath(e["file"]))]

    def one(entry):
        key = key_of(entry, root, version)
        path = os.path.join(cache, key) if key else None
        if path and os.path.exists(path):
            with open(path) as f:
                return True, [l for l in f.read().splitlines() if l]
        findings = run_tidy(entry, opts.build, root)
        if path:
            with open(path + ".tmp", "w") as f:
                f.write("\n".join(findings) + "\n")
            os.replace(path + ".tmp", path)
        return False, findings

    with ThreadPoolExecutor(max_workers=opts.j) as pool:
        results = list(pool.map(one, tus))
    hits = sum(1 for cached, _ in results if cached)
    findings = sorted(set(l for _, fs in results for l in fs))
    print(f"lint: clang-tidy: {len(tus)} translation units, {hits} from the cache ({cache})")
    for l in findings:
        print(l)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
