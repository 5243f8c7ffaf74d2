package extractors

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// realOutput is one excerpt of testdata/outputs.jsonl: a real tool call
// and its verbatim output from the evaluation corpus.
type realOutput struct {
	Name      string `json:"name"`
	Source    string `json:"source"`
	ID        string `json:"id"`
	Tool      string `json:"tool"`
	Arguments string `json:"arguments"`
	Output    string `json:"output"`
}

// loadRealOutputs reads testdata/outputs.jsonl by name.
func loadRealOutputs(tb testing.TB) map[string]realOutput {
	tb.Helper()
	f, err := os.Open("testdata/outputs.jsonl")
	require.NoError(tb, err)
	defer f.Close()
	out := map[string]realOutput{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r realOutput
		require.NoError(tb, json.Unmarshal(sc.Bytes(), &r))
		out[r.Name] = r
	}
	require.NoError(tb, sc.Err())
	return out
}

func (r realOutput) call() Call { return Call{ID: r.ID, Name: r.Tool, Arguments: r.Arguments} }
