package refid

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEach(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"no ref here", nil},
		{"masked ref:k3f2a9qx.", []string{"k3f2a9qx."}},
		{"[… compact: 12 bytes cut, ref:abcd2345 …] and ref:zz_9-x, ref: ref:", []string{"abcd2345", "zz_9-x"}},
		{"ref:a ref:b", []string{"a", "b"}},
		{"href:x", []string{"x"}}, // a ref is found wherever it stands, as the recall tool reads it
	}
	for _, tt := range tests {
		var got []string
		Each(tt.in, func(id string) bool { got = append(got, id); return true })
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
	n := 0
	Each("ref:a ref:b ref:c", func(string) bool { n++; return n < 2 })
	assert.Equal(t, 2, n, "stops when fn returns false")
}

func TestNames(t *testing.T) {
	assert.True(t, Names("see ref:abc for it", "abc"))
	assert.True(t, Names("ref:abcd ref:abc", "abc"))
	assert.False(t, Names("see ref:abcd", "abc"), "the start of a longer ref")
	assert.False(t, Names("see abc", "abc"))
	assert.False(t, Names("", "abc"))
	assert.True(t, Names("ref:abc lines 1-2", "abc"))
	assert.True(t, Names("x ref:abd, ref:abc", "abc"))
	assert.True(t, Names("ref:abc", "abc"))
	assert.False(t, Names("ref:abcd", "abc"), "the start of a longer ref")
	assert.False(t, Names("ref:abc.x ref:abc-", "abc"))
	assert.True(t, IsByte('-') && IsByte('Z') && !IsByte(' ') && !IsByte(':'))
}
