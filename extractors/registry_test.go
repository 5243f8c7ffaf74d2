package extractors

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func factsFunc(facts ...string) Extractor {
	return Func(func(c Call, _ string) ToolSummary {
		return ToolSummary{Tool: c.Name, Status: StatusSuccess, KeyFacts: append([]string(nil), facts...)}
	})
}

func TestRegistryDispatch(t *testing.T) {
	r := NewRegistry(WithAlias("shell_exec", "mine"))
	r.Register("Mine", factsFunc("mine"))
	r.Alias("other", "MINE")
	tests := []struct {
		tool, want string
	}{
		{"mine", "mine"}, {"MINE", "mine"}, {" Mine ", "mine"}, {"other", "mine"}, {"shell_exec", "mine"},
		{"unknown", "hello"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			s := r.Extract(Call{Name: tc.tool}, "hello")
			assert.Equal(t, tc.want, s.KeyFacts[0])
		})
	}
	_, ok := r.Lookup("unknown")
	assert.False(t, ok)
	_, ok = r.Lookup("OTHER")
	assert.True(t, ok)
	r.Register("mine", nil)
	_, ok = r.Lookup("mine")
	assert.False(t, ok, "nil unregisters")
}

func TestRegistryAliasCycle(t *testing.T) {
	r := NewRegistry()
	r.Alias("a", "b")
	r.Alias("b", "a")
	s := r.Extract(Call{Name: "a"}, "x")
	assert.Equal(t, StatusSuccess, s.Status, "a cycle falls back instead of looping")
}

func TestRegistryOptions(t *testing.T) {
	many := factsFunc("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
	r := NewRegistry(WithMaxFacts(3), WithToolMaxFacts("wide", 5), WithVerbatim("keepme"), WithExclude("noise", "keepme"))
	r.Register("narrow", many)
	r.Register("wide", many)
	r.Register("noise", many)
	assert.Len(t, r.Extract(Call{Name: "narrow"}, "").KeyFacts, 3)
	assert.Len(t, r.Extract(Call{Name: "WIDE"}, "").KeyFacts, 5)
	noise := r.Extract(Call{Name: "noise"}, "a\nb\n")
	assert.Equal(t, []string{"output dropped: 2 lines, 4 B"}, noise.KeyFacts)
	assert.True(t, r.Verbatim("KeepMe"))
	assert.False(t, r.Verbatim("noise"))
	assert.False(t, r.Verbatim("narrow"))
	r.Alias("kept_alias", "keepme")
	assert.True(t, r.Verbatim("kept_alias"))
	assert.Len(t, Default().Extract(Call{Name: "x"}, "a\n"+strings.Repeat("b", 300)).KeyFacts, 3, "fallback facts")
}

func TestRegistryRecoversAndCleans(t *testing.T) {
	r := NewRegistry()
	r.Register("boom", Func(func(Call, string) ToolSummary { panic("boom") }))
	r.Register("dirty", Func(func(Call, string) ToolSummary {
		return ToolSummary{Status: "weird", KeyFacts: []string{"line1\nline2", "", strings.Repeat("x", 5000), "key AKIAIOSFODNN7EXAMPLE"}, Metadata: map[string]string{"k": "password=\"hunter22\""}}
	}))
	s := r.Extract(Call{Name: "boom"}, "Traceback (most recent call last):\nValueError: x")
	assert.Equal(t, "boom", s.Tool)
	assert.Equal(t, StatusError, s.Status, "the fallback's verdict")
	d := r.Extract(Call{Name: "dirty"}, "")
	assert.Equal(t, StatusSuccess, d.Status)
	assert.Equal(t, "dirty", d.Tool)
	assert.Equal(t, "line1 line2", d.KeyFacts[0])
	assert.LessOrEqual(t, len(d.KeyFacts[1]), MaxFactBytes)
	assert.Equal(t, "key [REDACTED:aws-key]", d.KeyFacts[2])
	assert.NotContains(t, d.Metadata["k"], "hunter22")
}

func TestRegistryDefaultIsNew(t *testing.T) {
	a, b := Default(), Default()
	a.Register("bash", factsFunc("custom"))
	assert.Equal(t, "custom", a.Extract(Call{Name: "bash"}, "").KeyFacts[0])
	assert.NotEqual(t, "custom", b.Extract(Call{Name: "bash"}, "").KeyFacts[0])
}

func TestRegistryConcurrent(t *testing.T) {
	r := Default()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				name := fmt.Sprintf("tool%d", j%5)
				r.Register(name, factsFunc(name))
				r.Alias(fmt.Sprintf("alias%d", i), name)
				s := r.Extract(Call{Name: name}, "x")
				assert.NotEmpty(t, s.KeyFacts)
				r.Verbatim(name)
				r.Extract(Call{Name: "bash", Arguments: `{"command":"cat a.py"}`}, "import os\n")
			}
		}(i)
	}
	wg.Wait()
}
