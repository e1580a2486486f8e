# node_check_reason.awk: the reason a node check gives an operator, from membench-check
# --format=csv: each GPU and level not within its reference, "GPU-xxxxxxxx LEVEL VERDICT
# DEVIATION", the first three, then how many more; empty when every level is within. Read
# from the CSV's table "each GPU by level" (GPU, host, level, part, verdict, deviation in
# percent, z, rows), parsed as RFC 4180 (a quoted field may hold commas, line breaks and ""
# for a quote: a host name is the machine's to choose). Shared by the Slurm health check and
# node-problem-detector's plugin. With -v what=judged it prints instead how many of the
# table's lines were judged within or faster: a check that exits 0 without any judged nothing.

# csv_split(record, f): the fields of one CSV record into f[1..n]; n, or 0 while a quoted
# field is still open (the record goes on on the next line).
function csv_split(s, f,    n, i, c, field, quoted) {
  if (index(s, "\"") == 0) return split(s, f, ",")
  n = 0; field = ""; quoted = 0
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (quoted) {
      if (c != "\"") field = field c
      else if (substr(s, i + 1, 1) == "\"") { field = field "\""; i++ }
      else quoted = 0
    } else if (c == "\"") quoted = 1
    else if (c == ",") { f[++n] = field; field = "" }
    else field = field c
  }
  if (quoted) return 0
  f[++n] = field
  return n
}
{ sub(/\r$/, "") }
open != "" { $0 = open "\n" $0; open = "" }
/^# / { table = index($0, "# each GPU by level") == 1; next }
!table { next }
{
  split("", f)
  if (csv_split($0, f) == 0) { open = $0; next }
}
f[1] !~ /^GPU-/ { next }
f[5] == "within" || f[5] == "faster" { judged++; next }
f[5] != "not in the reference" {
  n++
  if (n <= 3) out = out (out == "" ? "" : "; ") substr(f[1], 1, 12) " " f[3] " " f[5] (f[6] ~ /^-?[0-9.]+$/ ? sprintf(" %+.2f %%", f[6]) : "")
}
END {
  if (what == "judged") { print judged + 0; exit }
  if (n > 3) out = out "; and " n - 3 " more"
  print out
}
