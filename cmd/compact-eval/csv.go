package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// writeCSV writes one line per run: the per-run figures behind the tables.
func writeCSV(ev *evaluation, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write runs.csv: %w", err)
	}
	w := csv.NewWriter(f)
	head := []string{"trajectory", "window", "strategy", "calls", "tokens_sent", "tokens_none", "peak", "compactions",
		"summarizer_calls", "summarizer_in", "summarizer_out", "budget_violations", "pair_violations", "errors", "prefix_stable", "cached_tokens"}
	for _, k := range factNames {
		k = strings.ReplaceAll(k, " ", "_")
		head = append(head, k+"_present", k+"_visible")
	}
	head = append(head, "used_later_needed", "used_later_kept", "over_window_calls")
	head = append(head, recallColumns...)
	_ = w.Write(head)
	for _, res := range ev.results {
		var sent, none, peak, comp, sc, si, so, bv, pv, fl, stb, cached int
		for _, c := range res.calls {
			none += c.origTokens
			if c.failed {
				fl++
				continue
			}
			sent += c.sent
			peak = max(peak, c.sent)
			sc, si, so = sc+c.sumCalls, si+c.sumIn, so+c.sumOut
			cached += c.cached
			comp += b2i(c.compacted)
			bv += b2i(c.overBudget)
			pv += b2i(c.pairErr)
			stb += b2i(c.stable)
		}
		rec := []string{res.file, strconv.Itoa(res.window), res.strategy, strconv.Itoa(len(res.calls)), strconv.Itoa(sent),
			strconv.Itoa(none), strconv.Itoa(peak), strconv.Itoa(comp), strconv.Itoa(sc), strconv.Itoa(si), strconv.Itoa(so),
			strconv.Itoa(bv), strconv.Itoa(pv), strconv.Itoa(fl), strconv.Itoa(stb), strconv.Itoa(cached)}
		for k := range numFactKinds {
			rec = append(rec, strconv.Itoa(res.ret.present[k]), strconv.Itoa(res.ret.visible[k]))
		}
		var need, kept, ow int
		for _, c := range res.calls {
			need, kept, ow = need+c.needed, kept+c.keptLater, ow+b2i(c.overWindow)
		}
		rec = append(rec, strconv.Itoa(need), strconv.Itoa(kept), strconv.Itoa(ow))
		rec = append(rec, recallCells(res.recall)...)
		_ = w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("write runs.csv: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write runs.csv: %w", err)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// recallColumns are the runs.csv columns of recall (see recallStats).
var recallColumns = []string{"recall_originals", "recall_by_ref", "recall_searchable", "recall_by_search", "recall_checkpoints", "recall_failed_checks", "ref_tokens"}

// recallCells are a run's cells of recallColumns: "n/a" for a strategy
// that does not compact losslessly.
func recallCells(s recallStats) []string {
	if !s.measured {
		out := make([]string, len(recallColumns))
		for i := range out {
			out[i] = "n/a"
		}
		return out
	}
	return []string{strconv.Itoa(s.originals), strconv.Itoa(s.byRef), strconv.Itoa(s.searchable), strconv.Itoa(s.bySearch),
		strconv.Itoa(s.checks), strconv.Itoa(s.failed), strconv.FormatInt(s.refTokens, 10)}
}
