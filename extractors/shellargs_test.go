package extractors

import (
	"testing"

	"github.com/agentcompact/compact/internal/shellwords"
	"github.com/stretchr/testify/assert"
)

func TestGrepOpts(t *testing.T) {
	o := grepOpts(shellwords.Parse(`grep -rn --include=*.py -A 3 "def foo" src lib`)[0])
	assert.Equal(t, "def foo", o.pattern)
	assert.Equal(t, []string{"src", "lib"}, o.paths)
	assert.True(t, o.multi)
	assert.True(t, o.context)
	o = grepOpts(shellwords.Parse(`grep -c -e x a.py`)[0])
	assert.Equal(t, "x", o.pattern)
	assert.True(t, o.counts)
	assert.False(t, o.multi)
}
