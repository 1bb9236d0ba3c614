#!/bin/sh
# A misbehaving GTP engine for tests/match_runner.rs. It accepts every
# command with an empty success answer except `genmove`, and `play` in
# mode `refuse`; MODE chooses how it fails:
#   illegal  genmove always answers A1 (illegal once A1 is taken)
#   garbage  genmove answers a line that is not GTP
#   crash    the process exits at its second genmove
#   error    genmove answers `? cannot generate`
#   slow     genmove takes 3 seconds, then passes
#   refuse   play answers `? illegal move`; genmove passes
#   passer   genmove passes (a well-behaved, very weak engine)
mode="$1"
genmoves=0
while read -r cmd rest; do
    case "$cmd" in
        genmove)
            genmoves=$((genmoves + 1))
            case "$mode" in
                illegal) printf '= A1\n\n' ;;
                garbage) printf 'I think D4 is nice\n\n' ;;
                crash) if [ "$genmoves" -ge 2 ]; then exit 1; fi; printf '= pass\n\n' ;;
                error) printf '? cannot generate\n\n' ;;
                slow) sleep 3; printf '= pass\n\n' ;;
                *) printf '= pass\n\n' ;;
            esac ;;
        play)
            if [ "$mode" = refuse ]; then printf '? illegal move\n\n'; else printf '=\n\n'; fi ;;
        name) printf '= fake-%s\n\n' "$mode" ;;
        known_command) printf '= false\n\n' ;;
        quit) printf '=\n\n'; exit 0 ;;
        *) printf '=\n\n' ;;
    esac
done
