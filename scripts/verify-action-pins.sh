#!/usr/bin/env bash
# Checks every third-party action pin of the workflows and the composite
# action against its repository: `uses: owner/repo[/path]@<sha> # vX.Y.Z`
# must name the commit the release tag vX.Y.Z points at (an annotated tag is
# peeled to its commit). internal/workflows' tests check the form offline;
# this checks the facts, so it needs the repositories:
#
#   scripts/verify-action-pins.sh                  # asks github.com (git ls-remote)
#   ACTION_REPO_URL='/mirrors/{owner}+{name}.git' scripts/verify-action-pins.sh
#
# ACTION_REPO_URL is the repository URL or path with {owner} and {name}
# replaced (default https://github.com/{owner}/{name}.git). Exits 1 when a
# pin names another commit than its tag's, or its tag does not exist; 2 when
# a repository cannot be reached.
set -uo pipefail
cd "$(dirname "$0")/.."
default_url='https://github.com/{owner}/{name}.git'
url_tmpl=${ACTION_REPO_URL:-$default_url}
o='{owner}' r='{name}'

files=(.github/workflows/*.yml action.yml)
pins=$(grep -hoE '^[[:space:]]*(-[[:space:]]+)?uses:[[:space:]]*[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}[[:space:]]*#[[:space:]]*v[0-9]+\.[0-9]+\.[0-9]+[[:space:]]*$' "${files[@]}" |
  sed -E 's/^[[:space:]]*(-[[:space:]]+)?uses:[[:space:]]*//; s/[[:space:]]*#[[:space:]]*/ /' | sort -u)
if [[ -z "$pins" ]]; then
  echo "verify-action-pins: no SHA pins found in ${files[*]}" >&2
  exit 1
fi

bad=0 unreachable=0 n=0
while read -r action release; do
  n=$((n + 1))
  full=${action%@*} sha=${action#*@}
  owner=${full%%/*} rest=${full#*/} name=${rest%%/*}
  url=${url_tmpl//"$o"/$owner}
  url=${url//"$r"/$name}
  if ! refs=$(git ls-remote --tags "$url" "refs/tags/$release" "refs/tags/$release^{}" 2>&1); then
    echo "UNREACHABLE $owner/$name ($url): $refs" >&2
    unreachable=$((unreachable + 1))
    continue
  fi
  # The peeled line (^{}) of an annotated tag names the commit; a
  # lightweight tag's own line does.
  commit=$(awk -v r="refs/tags/$release^{}" '$2 == r {print $1}' <<<"$refs")
  [[ -z "$commit" ]] && commit=$(awk -v r="refs/tags/$release" '$2 == r {print $1}' <<<"$refs")
  if [[ -z "$commit" ]]; then
    echo "NO TAG     $full: $release does not exist in $url" >&2
    bad=$((bad + 1))
  elif [[ "$commit" != "$sha" ]]; then
    echo "MISMATCH   $full: pinned $sha, but $release is $commit" >&2
    bad=$((bad + 1))
  else
    echo "ok         $full@$sha = $release"
  fi
done <<<"$pins"

echo "verify-action-pins: $n pin(s), $bad wrong, $unreachable unreachable"
((bad > 0)) && exit 1
((unreachable > 0)) && exit 2
exit 0
