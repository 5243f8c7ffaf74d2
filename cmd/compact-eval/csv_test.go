package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteCSV(t *testing.T) {
	ev := &evaluation{results: []runResult{{file: "a.jsonl", strategy: "ours-rule", window: 32000, calls: []callRecord{
		{origTokens: 100, sent: 100, needed: 2, keptLater: 2},
		{origTokens: 200, sent: 150, cached: 90, stable: true, compacted: true, sumCalls: 1, sumIn: 40, sumOut: 5, needed: 5, keptLater: 3},
		{origTokens: 300, failed: true, needed: 1},
	}, ret: retention{present: [numFactKinds]int{3, 1, 2, 4}, visible: [numFactKinds]int{3, 0, 1, 4}},
		recall: recallStats{measured: true, originals: 5, byRef: 4, searchable: 3, bySearch: 3, checks: 2, failed: 1, refTokens: 42}},
		{file: "a.jsonl", strategy: "none", window: 32000, calls: []callRecord{{origTokens: 100, sent: 100}}},
	}}
	path := filepath.Join(t.TempDir(), "runs.csv")
	require.NoError(t, writeCSV(ev, path))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 3)
	got := map[string]string{}
	for i, h := range recs[0] {
		got[h] = recs[1][i]
	}
	assert.Equal(t, map[string]string{
		"trajectory": "a.jsonl", "window": "32000", "strategy": "ours-rule", "calls": "3", "tokens_sent": "250",
		"tokens_none": "600", "peak": "150", "compactions": "1", "summarizer_calls": "1", "summarizer_in": "40",
		"summarizer_out": "5", "budget_violations": "0", "pair_violations": "0", "errors": "1", "prefix_stable": "1",
		"cached_tokens": "90", "paths_present": "3", "paths_visible": "3", "exceptions_present": "1",
		"exceptions_visible": "0", "exit_statuses_present": "2", "exit_statuses_visible": "1",
		"used_later_needed": "8", "used_later_kept": "5", "over_window_calls": "0",
		"identifiers_present": "0", "identifiers_visible": "0",
		"instructions_present": "4", "instructions_visible": "4",
		"recall_originals": "5", "recall_by_ref": "4", "recall_searchable": "3", "recall_by_search": "3",
		"recall_checkpoints": "2", "recall_failed_checks": "1", "ref_tokens": "42",
	}, got)
	for i, h := range recs[0] {
		if strings.HasPrefix(h, "recall_") || h == "ref_tokens" {
			assert.Equal(t, "n/a", recs[2][i], "%s of a baseline", h)
		}
	}
	assert.Error(t, writeCSV(ev, filepath.Join(t.TempDir(), "no", "runs.csv")))
}
