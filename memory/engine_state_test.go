package memory

import (
	"encoding/json"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRewriteEngineState(t *testing.T) {
	in := `{"version":1,"id":"s","chain":[{"id":"r1","summary":"one"},{"id":"r2","summary":"two"}],"dropped":["a","b~2","c"],` +
		`"masked":{"b~2":["m"],"z":[""]},"cut":{"c":[0,1,2]},"lastCompactionLen":40,"stats":{"compactions":2}}`
	t.Run("trim only", func(t *testing.T) {
		out, err := rewriteEngineState([]byte(in), nil, 0)
		require.NoError(t, err)
		var got map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(out, &got))
		assert.JSONEq(t, `[{"id":"r2","summary":"two"}]`, string(got["chain"]))
		assert.JSONEq(t, `["a","b~2","c"]`, string(got["dropped"]))
		assert.JSONEq(t, `40`, string(got["lastCompactionLen"]))
		assert.JSONEq(t, `{"compactions":2}`, string(got["stats"]))
	})
	t.Run("remap and shift", func(t *testing.T) {
		out, err := rewriteEngineState([]byte(in), map[string]string{"b~2": "b", "c": "c"}, 10)
		require.NoError(t, err)
		var got map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(out, &got))
		assert.JSONEq(t, `["b","c"]`, string(got["dropped"]))
		assert.JSONEq(t, `{"b":["m"]}`, string(got["masked"]))
		assert.JSONEq(t, `{"c":[0,1,2]}`, string(got["cut"]))
		assert.JSONEq(t, `30`, string(got["lastCompactionLen"]))
		s := compact.NewSession("")
		require.NoError(t, s.UnmarshalJSON(out), "the engine reads the result")
		assert.Equal(t, []string{"b", "c"}, s.Covered())
		assert.Equal(t, "r2", s.Latest().ID)
	})
	t.Run("shift never reaches zero", func(t *testing.T) {
		out, err := rewriteEngineState([]byte(`{"version":1,"lastCompactionLen":5}`), map[string]string{}, 9)
		require.NoError(t, err)
		assert.JSONEq(t, `{"version":1,"lastCompactionLen":1}`, string(out))
	})
	for name, bad := range map[string]string{
		"unknown field": `{"version":1,"pinned":["a"]}`,
		"newer version": `{"version":2}`,
		"no version":    `{}`,
		"bad dropped":   `{"version":1,"dropped":{"a":1}}`,
		"not json":      `{`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := rewriteEngineState([]byte(bad), map[string]string{}, 1)
			require.ErrorIs(t, err, errEngineForm)
		})
	}
}

// TestEngineStateRoundTrip guards the fields rewriteEngineState knows
// against the engine's current JSON form.
func TestEngineStateRoundTrip(t *testing.T) {
	c := testCompactor(t, 3000)
	m := New(c, WithReturnMessages(true))
	talk(t, m, 0, 30)
	js, err := m.sess.MarshalJSON()
	require.NoError(t, err)
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(js, &top))
	for k := range top {
		assert.True(t, knownEngineKeys[k], "compact.Session field %q is unknown to rewriteEngineState", k)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	assert.Greater(t, m.start, m.lead, "the window moved")
	assert.False(t, m.formWarned)
}
