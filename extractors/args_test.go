package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseArgs(t *testing.T) {
	a := parseArgs(`{"command": "ls", "line": 12, "flag": true, "argv": ["git", "status"], "n": "7"}`)
	assert.Equal(t, "ls", a.str("cmd", "command"))
	assert.Equal(t, "12", a.str("line"))
	assert.Equal(t, "true", a.str("flag"))
	assert.Equal(t, "git status", a.str("argv"))
	n, ok := a.int("n")
	assert.True(t, ok)
	assert.Equal(t, 7, n)
	_, ok = a.int("missing")
	assert.False(t, ok)
	assert.Equal(t, "cat a.py", parseArgs(`"cat a.py"`).raw, "a JSON string is the raw input")
	assert.Equal(t, "{broken", parseArgs(`{broken`).raw)
	assert.Nil(t, parseArgs(`{broken`).m)
}

func TestFunctionsAgentArg(t *testing.T) {
	// langchaingo's OpenAI functions agent passes a tool's input as {"__arg1": "..."}.
	reg := Default()
	s := reg.Extract(Call{Name: "read_file", Arguments: `{"__arg1":"memory/store.go"}`}, "package memory\n\nfunc Open() {}\n")
	assert.Contains(t, Format(s), "memory/store.go")
	s = reg.Extract(Call{Name: "bash", Arguments: `{"__arg1":"go vet ./..."}`}, "ok\n")
	assert.Contains(t, Format(s), "go vet")
}
