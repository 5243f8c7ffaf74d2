// Package pgtest finds the PostgreSQL server of the module's tests: the
// DSN in COMPACT_POSTGRES_DSN (or the local default), and a skip of the
// test when no server answers.
package pgtest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultDSN is the server the tests use unless COMPACT_POSTGRES_DSN names
// another: the local PostgreSQL of every development and CI machine.
const DefaultDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Getenv returns COMPACT_POSTGRES_DSN, or DefaultDSN when it is unset.
func Getenv() string {
	if dsn := os.Getenv("COMPACT_POSTGRES_DSN"); dsn != "" {
		return dsn
	}
	return DefaultDSN
}

// DSN returns the tests' server DSN, skipping t with a clear message when
// no server answers there within 3 s. redact, when not nil, makes the
// connection error safe to print (no password); without it the error is
// not printed.
func DSN(t testing.TB, redact func(error, string) string) string {
	t.Helper()
	dsn := Getenv()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		why := "connection failed"
		if redact != nil {
			why = redact(err, dsn)
		}
		t.Skipf("skipping: no PostgreSQL server answers at COMPACT_POSTGRES_DSN (default %s): %s; start one or set the variable (CI always has one)", DefaultDSN, why)
	}
	_ = conn.Close(ctx)
	return dsn
}
