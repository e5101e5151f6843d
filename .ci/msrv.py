"""The MSRV as far as CI's one toolchain can check it: every crate a user's build of a
published package compiles (normal and build dependencies, every feature) declares a
rust-version no newer than the package's own. (Clippy's `incompatible_msrv` lint, on in CI's
`clippy -D warnings`, refuses std APIs newer than it in our own code.)

Usage: python3 .ci/msrv.py PACKAGE [PACKAGE...]"""
import json
import subprocess
import sys


def version_tuple(text):
    """"1.87" and "1.87.0" alike."""
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main(packages):
    meta = json.loads(subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--all-features", "--locked"],
        check=True, capture_output=True, text=True).stdout)
    by_id = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    failures = []
    for name in packages:
        root = next(p for p in meta["packages"]
                    if p["name"] == name and p["id"] in meta["workspace_members"])
        ours = version_tuple(root["rust_version"])
        seen, stack = set(), [root["id"]]
        while stack:
            node = nodes[stack.pop()]
            for dep in node["deps"]:
                kinds = {k["kind"] for k in dep["dep_kinds"]}
                if kinds & {None, "build"} and dep["pkg"] not in seen:
                    seen.add(dep["pkg"])
                    stack.append(dep["pkg"])
        asked = [(version_tuple(by_id[i]["rust_version"]), by_id[i])
                 for i in seen if by_id[i]["rust_version"]]
        newest = max(asked, key=lambda pair: pair[0])[1]
        print(f"{name}: rust-version {root['rust_version']}; {len(seen)} crates; the newest "
              f"a dependency asks is {newest['rust_version']} ({newest['name']} {newest['version']})")
        failures += [f"{p['name']} {p['version']} asks {p['rust_version']}, over {name}'s "
                     f"{root['rust_version']}" for version, p in asked if version > ours]
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
