# The one-line result of a finished `datagen match` (sourced, not run): its output ends with the
# final `… N games, W … D … L …`, `Elo … ± …` and `SPRT … LLR …` lines, after progress lines of
# the same shapes, so each value is the last one of its kind.
#
#   match_summary MATCH_FILE SPRT   # → "Elo +13.8 ± 10.7 (95%), 2992 games, SPRT [0,10] LLR 2.98 H1"
match_summary() {
    local file="$1" sprt="$2" elo games llr verdict=
    elo="$(grep -E "^Elo" "$file" | tail -1 | tr -s ' ' | tr '|' '/')"
    games="$(grep -oE "[0-9]+ games" "$file" | tail -1)"
    llr="$(grep -oE "LLR [-0-9.]+" "$file" | tail -1)"
    grep -q "AcceptH1" "$file" && verdict=" H1"
    grep -q "AcceptH0" "$file" && verdict=" H0"
    echo "$elo, $games, SPRT [$sprt] $llr$verdict"
}
