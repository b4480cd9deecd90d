# --- The mover's decisions, apart from the servers. ------------------------------------------
# Each one reads the states it is given (its arguments, and listings as the servers returned
# them) and prints its verdict; none connects, writes, sleeps or exits, so the unit tests feed
# them recorded states (test/lib/folio/constructs/schema-mover/decide.test.ts). The steps in
# the other files gather the states, act on the verdict and say what they did.

# verified: the first differences between two listings (content, then shape), at most three,
# in words; nothing when they agree. differences <src content> <tgt content> <src shape>
# <tgt shape> <scratch prefix>. Status 1 when the listings could not be compared: a failed
# comparison never reads as "no difference".
differences() {
  awk 'NR == FNR { a[$1 " " $2] = $0; next }
    { k = $1 " " $2; if (!(k in a)) { print $1 " " $2 " is on the target only"; next }
      if (a[k] != $0) { split(a[k], s, " ");
        if ($1 == "table" && s[3] != $3) print "table " $2 " has " s[3] " rows on the source, " $3 " on the target";
        else if ($1 == "table") print "table " $2 " has the same " $3 " rows but different content";
        else print "sequence " $2 " is at " s[3] " (is_called " s[4] ") on the source, " $3 " (is_called " $4 ") on the target" }
      delete a[k] }
    END { for (k in a) print k " is on the source only" }' "$1" "$2" >"$5.diff.raw" || return 1
  LC_ALL=C sort "$5.diff.raw" >"$5.diff" || return 1
  LC_ALL=C comm -23 "$3" "$4" >"$5.diff.raw" || return 1
  sed 's/^/source only: /' "$5.diff.raw" >>"$5.diff" || return 1
  LC_ALL=C comm -13 "$3" "$4" >"$5.diff.raw" || return 1
  sed 's/^/target only: /' "$5.diff.raw" >>"$5.diff" || return 1
  # Decided on the file: the words below only describe a difference, they never hide one.
  [ -s "$5.diff" ] || return 0
  words=$(head -n 3 "$5.diff" | cut -c1-300 | paste -sd ';' - | sed 's/;/; /g')
  echo "${words:-the two sides differ (see $5.diff)}"
}

# resumed (a fenced copy): what to do with a schema the target may already hold.
# copy_verdict <recorded state> <target holds it: yes|no> <differences> <target's rows> <replace: true|false>
#   copy             the target has no copy: copy it
#   verified         recorded as verified, and it matches: skip it
#   recovered        an earlier run copied it and stopped before recording it verified: record it
#   adopted          it matches, and no mover recorded it: record it
#   aside <why>      set the target's copy aside (renamed, never dropped), then copy
#   refuse           it differs and holds rows, and nothing says to set it aside
copy_verdict() {
  if [ "$2" != yes ]; then
    echo copy
  elif [ -z "$3" ]; then
    case "$1" in verified) echo verified ;; '') echo adopted ;; *) echo recovered ;; esac
  elif [ "$1" = copying ]; then
    echo "aside an unverified copy from an earlier run that differs from the source now ($3)"
  elif [ "$4" = 0 ]; then
    echo 'aside it holds no rows'
  elif [ "$5" = true ]; then
    echo "aside --replace ($3)"
  else
    echo refuse
  fi
}

# verified, before a drop: may the source's copy go? drop_verdict <record: "<state> <content
# recorded: true|false>"> <target holds it: yes|no> <views of other schemas reading it>
# <sessions using it> <force: true|false>. Prints "go", or "refuse <why>" for the first reason
# (its words name MOVE_FROM and MOVE_TO).
drop_verdict() {
  case "$1" in
    "verified true")
      if [ "$2" != yes ]; then
        echo "refuse the target ($MOVE_TO) no longer holds the verified copy; refusing to drop the source"
      elif [ -n "$3" ]; then
        echo "refuse views of other schemas on the source still read it: $3"
      elif [ -n "$4" ] && [ "$5" != true ]; then
        echo "refuse still in use on the source: $4"
      else
        echo go
      fi
      ;;
    "verified false") echo "refuse the target's copy was verified by row counts only, by an older mover; run the move again to verify it by content, then --drop-source" ;;
    *) echo "refuse the target ($MOVE_TO) has no verified copy from $MOVE_FROM; move it first" ;;
  esac
}

# verified, inside the drop's fence: the source against the content recorded when its copy
# was verified. unchanged_verdict <recorded content> <source's content now> <scratch prefix>:
# nothing when they match, else the differences in words (status 1 as differences).
unchanged_verdict() {
  [ -s "$1" ] || {
    echo "the target's record holds no verified content; run the move again, then --drop-source"
    return 0
  }
  : >"$3.empty" || return 1
  d=$(differences "$1" "$2" "$3.empty" "$3.empty" "$3") || return 1
  [ -z "$d" ] || echo "the source changed since its copy was verified ($(printf '%s' "$d" | sed 's/on the source/in the verified copy/g; s/on the target/on the source now/g')); refusing to drop it"
}

# resumed (an online move): where a wave starts again. Reads "<schema> <recorded state, or ->
# <target holds it: yes|no>" lines, one per schema in the wave's order, and prints
#   skip                   every schema is moved and verified
#   switched <schema>      an earlier run switched it: never copied again
#   unrecorded <schemas>   the target holds them with no online move recorded: refused
#   restart [<schemas>]    start afresh, dropping the target's replicas of these first
online_resume_verdict() {
  awk '$3 != "yes" { n++; next }
    $2 == "switched" { if (switched == "") switched = $1; next }
    $2 == "verified" { done = done " " $1; n++; v++; next }
    $2 == "replicating" { partial = partial " " $1; n++; next }
    { other = other " " $1; n++ }
    END { if (switched != "") print "switched " switched
      else if (other != "") print "unrecorded" other
      else if (v > 0 && partial == "" && v == n) print "skip"
      else print "restart" partial done }'
}

# caught up: has the target applied the source's last write (the beacon)? catchup_verdict
# <beacon rows on the target> <the apply worker's errors> <polls so far> <timeout, s>. The
# polls are 50 ms apart. Prints caught-up, wait, failed (the apply worker erred) or timed-out.
catchup_verdict() {
  if [ "$1" = 1 ]; then
    echo caught-up
  elif [ "$2" != 0 ]; then
    echo failed
  elif [ "$3" -ge $(($4 * 20)) ]; then
    echo timed-out
  else
    echo wait
  fi
}

# The subscription's first copy: first_copy_verdict "<tables still copying> <tables>"
# <errors>: done, wait, or failed. Until the subscription lists its tables, none are done.
first_copy_verdict() {
  if [ "$2" != 0 ]; then
    echo failed
  elif [ "${1%% *}" = 0 ] && [ "${1#* }" != 0 ]; then
    echo done
  else
    echo wait
  fi
}

# switched, through routes: one poll, 100 ms apart, of the wait for the routes to settle.
# route_verdict <quiet polls> <every route leads to the target: yes|no> <sessions looked for
# this poll: yes|no> <sessions of the module found on the source: yes|no> <now, s> <deadline,
# s> <grace, s>. Prints "<verdict> <quiet polls>": unfence (routed, and no session of the module
# reached the source for the grace), guard (timed out: set the source aside), or wait.
route_verdict() {
  quiet=$1
  if [ "$2" = yes ] && [ "$3" = yes ]; then
    [ "$4" != yes ] || quiet=0
    [ $((quiet * 100)) -lt $(($7 * 1000)) ] || {
      echo "unfence $quiet"
      return 0
    }
  fi
  [ "$2" != yes ] || quiet=$((quiet + 1))
  if [ "$5" -ge "$6" ]; then echo "guard $quiet"; else echo "wait $quiet"; fi
}

# Why pg_dump or pg_restore failed: tool_failure <tool> <exit status, or "unknown"> <its first
# error line>. Nothing when it exited 0.
tool_failure() {
  [ "$2" != 0 ] || return 0
  [ -z "$3" ] || {
    echo "$3"
    return 0
  }
  case "$2" in 1[3-9][0-9]) echo "$1 was killed (signal $(($2 - 128)))" ;; *) echo "$1 exited $2" ;; esac
}

# Schemas per batch: about four batches per job whatever the number of schemas, so pg_dump
# reads the catalog that many times, not once per schema. batch_size <schemas> <jobs>.
batch_size() { echo $((($1 + 4 * $2 - 1) / (4 * $2))); }
