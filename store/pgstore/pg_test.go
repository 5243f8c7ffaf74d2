package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/agentcompact/compact/internal/pgtest"
)

// DefaultTestDSN is the server the tests use unless COMPACT_POSTGRES_DSN
// names another (see internal/pgtest).
const DefaultTestDSN = pgtest.DefaultDSN

// testDSN returns the DSN of the tests' server, skipping the test with a
// clear message when no server answers there.
func testDSN(t testing.TB) string {
	t.Helper()
	return pgtest.DSN(t, func(err error, dsn string) string { return redact(err, dsn).Error() })
}

// newTestStore opens a store on tables of its own (a random prefix),
// dropped when the test ends.
func newTestStore(t testing.TB, opts ...Option) *Store {
	t.Helper()
	dsn := testDSN(t)
	prefix := randomPrefix(t)
	s, err := New(context.Background(), dsn, append([]Option{WithTablePrefix(prefix)}, opts...)...)
	if err != nil {
		t.Fatalf("pgstore.New: %v", err)
	}
	t.Cleanup(func() {
		if err := s.dropAll(context.Background()); err != nil {
			t.Errorf("drop the test tables: %v", err)
		}
		s.Close()
	})
	return s
}

func randomPrefix(t testing.TB) string {
	t.Helper()
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "t" + hex.EncodeToString(b[:]) + "_"
}
