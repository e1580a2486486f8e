# node_check_text.sh: sourced by the node-problem-detector plugin (integrations/kubernetes/npd/),
# whose text from the check goes where an admin reads it on a terminal (kubectl describe). The
# Slurm health check holds the same two functions itself: a site may install it alone.

# Standard input without terminal control: escape sequences (colours, titles) whole, a tab or
# carriage return as a blank, any other C0 control character and DEL dropped. Bytes below 0x80
# are never part of a multi-byte UTF-8 character, so this keeps UTF-8 valid. The C1 control
# characters U+0080..U+009F (UTF-8 c2 80..c2 9f; a terminal may honour c2 9b as ESC [) are
# dropped whole too: c2 is only ever a lead byte, so the bytes around stay valid UTF-8.
printable() {
  local esc=$'\033' bel=$'\007' c1=$'\xc2[\x80-\x9f]'
  LC_ALL=C sed -E "s#$esc\[[0-?]*[ -/]*[@-~]##g; s#$esc\][^$bel$esc]*($bel|$esc\\\\)##g; s#$c1##g" |
    LC_ALL=C tr '\t\r' '  ' | LC_ALL=C tr -d '\000-\037\177'
}

# The first N bytes of standard input made printable, a multi-byte character cut at the end
# dropped: a Slurm reason and a JSON message must stay valid UTF-8.
first_bytes() { printable | head -c "$1" | iconv -c -f UTF-8 -t UTF-8 2>/dev/null; }
