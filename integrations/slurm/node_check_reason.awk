# node_check_reason.awk: the reason a node check gives an operator, from membench-check
# --format=csv: each GPU and level not within its reference, "GPU-xxxxxxxx LEVEL VERDICT
# DEVIATION", the first three, then how many more; empty when every level is within. Read
# from the CSV's table "each GPU by level" (GPU, host, level, part, verdict, deviation in
# percent, z, rows). Shared by the Slurm health check and node-problem-detector's plugin.
BEGIN { FS = "," }
/^# / { table = index($0, "# each GPU by level") == 1; next }
table && $1 ~ /^GPU-/ && $5 != "within" && $5 != "faster" && $5 != "not in the reference" {
  n++
  if (n <= 3) out = out (out == "" ? "" : "; ") substr($1, 1, 12) " " $3 " " $5 ($6 ~ /^-?[0-9.]+$/ ? sprintf(" %+.2f %%", $6) : "")
}
END { if (n > 3) out = out "; and " n - 3 " more"; print out }
