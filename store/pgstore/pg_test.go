package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultTestDSN is the server the tests use unless COMPACT_POSTGRES_DSN
// names another: the local PostgreSQL of every development and CI machine.
const DefaultTestDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// testDSN returns the DSN of the tests' server, skipping the test with a
// clear message when no server answers there.
func testDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("COMPACT_POSTGRES_DSN")
	if dsn == "" {
		dsn = DefaultTestDSN
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Skipf("no PostgreSQL server answers at COMPACT_POSTGRES_DSN (default %s): %v; start one or set the variable (CI always has one)", DefaultTestDSN, redact(err, dsn))
	}
	conn.Close(ctx)
	return dsn
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
