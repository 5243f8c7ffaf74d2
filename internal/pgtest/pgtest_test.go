package pgtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentcompact/compact/internal/pgtest"
)

func TestGetenv(t *testing.T) {
	t.Setenv("COMPACT_POSTGRES_DSN", "")
	assert.Equal(t, pgtest.DefaultDSN, pgtest.Getenv())
	t.Setenv("COMPACT_POSTGRES_DSN", "postgres://x@h:1/db")
	assert.Equal(t, "postgres://x@h:1/db", pgtest.Getenv())
}

// ExampleGetenv shows the convention: the variable, else the local server.
func ExampleGetenv() {
	_ = pgtest.Getenv() // COMPACT_POSTGRES_DSN, or DefaultDSN
}
