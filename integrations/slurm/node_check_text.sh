# node_check_text.sh: sourced by the node-problem-detector plugin (integrations/kubernetes/npd/),
# whose text from the check goes where an admin reads it on a terminal (kubectl describe). The
# Slurm health check holds the same two functions itself: a site may install it alone.

# Standard input as valid UTF-8 without terminal control. First every byte that is no part of
# a valid UTF-8 character is dropped (a lone 0x9b, 8-bit CSI, is one a terminal may honour);
# then escape sequences (colours, titles) whole, a tab or carriage return as a blank, any other
# C0 control character and DEL dropped, and the C1 control characters U+0080..U+009F (UTF-8
# c2 80..c2 9f) dropped whole. Each later step removes whole characters of valid UTF-8, so
# what is left stays valid and no new control character forms from the bytes around.
printable() {
  local esc=$'\033' bel=$'\007' c1=$'\xc2[\x80-\x9f]'
  # Without iconv (a minimal image) every byte above 0x7f goes: ASCII is valid UTF-8. iconv -c
  # exits 1 when it dropped a byte: a caller's pipefail must not take that for a failure.
  if command -v iconv >/dev/null; then iconv -c -f UTF-8 -t UTF-8 2>/dev/null || true; else LC_ALL=C tr -d '\200-\377'; fi |
    LC_ALL=C sed -E "s#$esc\[[0-?]*[ -/]*[@-~]##g; s#$esc\][^$bel$esc]*($bel|$esc\\\\)##g; s#$c1##g" |
    LC_ALL=C tr '\t\r' '  ' | LC_ALL=C tr -d '\000-\037\177'
}

# The first N bytes of standard input made printable, a multi-byte character cut at the end
# dropped: a Slurm reason and a JSON message must stay valid UTF-8.
first_bytes() { printable | head -c "$1" | { iconv -c -f UTF-8 -t UTF-8 2>/dev/null; true; }; }
