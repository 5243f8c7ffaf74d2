package conversation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/store"
)

func TestCheckID(t *testing.T) {
	for _, id := range []string{"a", "user-42", "会话-🙂-\u202e", "caf\xe9", `x'; DROP TABLE t; --`, strings.Repeat("x", store.MaxSessionIDBytes)} {
		assert.NoError(t, CheckID(id), "%.40q", id)
	}
	for _, id := range []string{"", "\x00auto-1", "a\x00b", "a\nb", "tab\t", "del\x7f", "c1\u0085", strings.Repeat("y", 1<<20)} {
		err := CheckID(id)
		require.ErrorIs(t, err, ErrInvalidID, "%.40q", id)
		assert.Less(t, len(err.Error()), 300, "the error quotes the id bounded: %.300q", err.Error())
	}
}
