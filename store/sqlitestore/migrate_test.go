package sqlitestore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// golden is testdata/v1.golden.json: what the code that wrote
// testdata/v1.db loaded back from it (see testdata/fixturegen).
type golden struct {
	Sessions map[string]struct {
		State    store.State       `json:"state"`
		Messages []json.RawMessage `json:"messages"`
	} `json:"sessions"`
}

// copyFixture copies a file of testdata to a new temporary directory (the
// tests never write to testdata).
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	return path
}

func schemaVersion(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	require.NoError(t, s.db.QueryRow(`SELECT version FROM compact_schema WHERE id = 1`).Scan(&v))
	return v
}

// TestOpenVersion1File opens a database written before schema versioning
// (by memory/sqlitestore at f022501): it is migrated in place, and Load and
// History return what the old code returned; then it works as any other.
func TestOpenVersion1File(t *testing.T) {
	ctx := context.Background()
	var g golden
	b, err := os.ReadFile(filepath.Join("testdata", "v1.golden.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &g))
	require.Len(t, g.Sessions, 3)

	path := copyFixture(t, "v1.db")
	for round := 0; round < 2; round++ { // the second Open finds the schema current
		s, err := Open(path)
		require.NoError(t, err)
		assert.Equal(t, SchemaVersion, schemaVersion(t, s))
		for id, want := range g.Sessions {
			got, err := s.Load(ctx, id)
			require.NoError(t, err, id)
			if len(want.State.Engine) > 0 {
				assert.JSONEq(t, string(want.State.Engine), string(got.Engine), id)
				want.State.Engine, got.Engine = nil, nil
			}
			assert.Equal(t, want.State, got, "session %q: the state the old code stored", id)

			msgs, err := s.History(id).Messages(ctx)
			require.NoError(t, err)
			require.Len(t, msgs, len(want.Messages), id)
			for i, raw := range want.Messages {
				m, err := store.UnmarshalMessage(raw)
				require.NoError(t, err)
				assert.Equal(t, m, msgs[i], "session %q, message %d", id, i)
			}
		}
		require.NoError(t, s.Close())
	}

	// The migrated file works: the conversation goes on from the stored
	// state (checked against the history first), originals can be kept.
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	before := g.Sessions["chat"].State
	m := memory.New(newCompactor(t), memory.WithStore(s), memory.WithSessionID("chat"))
	require.NoError(t, m.Verify(ctx), "the old records still match the old history")
	recs, err := m.Records(ctx)
	require.NoError(t, err)
	require.Equal(t, before.Chain, recs, "the stored chain is adopted")
	for i := 24; i < 30; i++ {
		turn(t, m, i)
	}
	require.NoError(t, m.Verify(ctx))
	after, err := s.Load(ctx, "chat")
	require.NoError(t, err)
	require.Greater(t, after.Version, before.Version)
	require.Equal(t, before.Chain, after.Chain[:len(before.Chain)], "the old records stay")
	require.NoError(t, m.Close())

	o := store.Original{Ref: "m1", MessageID: "x", Role: llms.ChatMessageTypeTool, Name: "read_file", Text: "old file, new table"}
	require.NoError(t, s.PutOriginals(ctx, "chat", []store.Original{o}))
	got, err := s.SearchOriginals(ctx, "chat", "NEW TABLE", 5)
	require.NoError(t, err)
	require.Equal(t, []store.Original{o}, got)
}

func TestOpenNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "newer.db")
	s, err := Open(path)
	require.NoError(t, err)
	_, err = s.db.Exec(`UPDATE compact_schema SET version = ? WHERE id = 1`, SchemaVersion+1)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	_, err = Open(path)
	require.ErrorContains(t, err, fmt.Sprintf("schema version %d", SchemaVersion+1))
	require.ErrorContains(t, err, path)
}

// TestOpenConcurrently opens one new file from several goroutines at once,
// as processes starting together would: the schema is created once, and
// every handle works.
func TestOpenConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "race.db")
	const n = 6
	handles := make(chan *Store, n)
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			s, err := Open(path)
			errs <- err
			handles <- s
		}()
	}
	for i := 0; i < n; i++ {
		require.NoError(t, <-errs)
		s := <-handles
		assert.Equal(t, SchemaVersion, schemaVersion(t, s))
		_, err := s.Save(context.Background(), store.State{SessionID: "x", Version: int64(i)}, 0)
		assert.NoError(t, err)
		require.NoError(t, s.Close())
	}
}

// TestStemMigration: a file at schema 3 (its search index without
// stemming) is migrated to compare English stems, its stored messages
// reindexed: "subjects" finds "subject" after, not before.
func TestStemMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.db")
	s, err := Open(path)
	require.NoError(t, err)
	h := s.History("liam")
	require.NoError(t, h.AddMessages(ctx, []llms.ChatMessage{
		llms.AIChatMessage{Content: "Which subject did you enjoy the most?"},
		llms.HumanChatMessage{Content: "Math and physics."},
	}))
	// Back to schema 3 as that code left it: the index without the stemmer.
	_, err = s.db.Exec(dropSearchIndex + searchMigration +
		`UPDATE compact_schema SET version = 3 WHERE id = 1;`)
	require.NoError(t, err)
	hits, err := h.(store.Searcher).Search(ctx, "subjects", 5)
	require.NoError(t, err)
	require.Empty(t, hits, "schema 3 matches words exactly")
	require.NoError(t, s.Close())

	s, err = Open(path)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, SchemaVersion, schemaVersion(t, s))
	hits, err = s.History("liam").(store.Searcher).Search(ctx, "subjects", 5)
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.Equal(t, 0, hits[0].Pos)
}
