package llmsummary

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/prompts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func bigSummary() prompts.Summary {
	s := prompts.Summary{
		Summary: "The agent fixed the crash in loader.go. It then ran the tests! Were they green? Yes, all 42 passed.",
	}
	for i := range 30 {
		s.KeyPoints = append(s.KeyPoints, fmt.Sprintf("key point %02d about module_%02d", i, i))
	}
	for i := range 10 {
		s.Context.Decisions = append(s.Context.Decisions, fmt.Sprintf("decision %d", i))
		s.Context.DomainEntities = append(s.Context.DomainEntities, fmt.Sprintf("entity_%d.go", i))
		s.Context.Unresolved = append(s.Context.Unresolved, fmt.Sprintf("question %d?", i))
		s.Context.ActionItems = append(s.Context.ActionItems, prompts.ActionItem{Task: fmt.Sprintf("task %d", i), Owner: "user", Due: "2025-01-02"})
	}
	s.Context.Participants = []string{"user", "assistant"}
	return s
}

func TestFormatSummary(t *testing.T) {
	s := prompts.Summary{
		Summary:   "Narrative.",
		KeyPoints: []string{"k1", "k2"},
		Context: prompts.Context{
			Participants:   []string{"user"},
			Decisions:      []string{"d1"},
			ActionItems:    []prompts.ActionItem{{Task: "t1", Owner: "bob", Due: "Friday"}, {Task: "t2"}},
			Unresolved:     []string{"u1"},
			DomainEntities: []string{"a.go", "B"},
		},
	}
	assert.Equal(t, "Narrative.\nKey points:\n- k1\n- k2\nDecisions:\n- d1\nAction items:\n- t1 (owner: bob; due: Friday)\n- t2\nUnresolved:\n- u1\nEntities: a.go, B", formatSummary(s))
	assert.Equal(t, "Only.", formatSummary(prompts.Summary{Summary: " Only. "}))
}

func TestFitSummary(t *testing.T) {
	full := bigSummary()
	fullTok := quarterCount(formatSummary(full))
	tests := []struct {
		name  string
		max   int
		check func(t *testing.T, s prompts.Summary, text string)
	}{
		{name: "fits: unchanged", max: fullTok, check: func(t *testing.T, s prompts.Summary, text string) {
			assert.Equal(t, full.Normalized(), s)
		}},
		{name: "key points dropped from the end first", max: fullTok - 10, check: func(t *testing.T, s prompts.Summary, _ string) {
			assert.Less(t, len(s.KeyPoints), 30)
			assert.Greater(t, len(s.KeyPoints), 5)
			assert.Equal(t, full.KeyPoints[:len(s.KeyPoints)], s.KeyPoints)
			assert.Len(t, s.Context.Decisions, 10, "arrays untouched while key points can go")
		}},
		{name: "arrays shortened next", max: fullTok - 200, check: func(t *testing.T, s prompts.Summary, _ string) {
			assert.Len(t, s.KeyPoints, 5)
			assert.Less(t, len(s.Context.DomainEntities)+len(s.Context.Decisions)+len(s.Context.Unresolved)+len(s.Context.ActionItems), 40)
			assert.Equal(t, full.Context.Decisions[:len(s.Context.Decisions)], s.Context.Decisions)
		}},
		{name: "narrative cut at a sentence", max: 18, check: func(t *testing.T, s prompts.Summary, text string) {
			assert.Empty(t, s.KeyPoints)
			assert.Empty(t, s.Context.DomainEntities)
			assert.Equal(t, "The agent fixed the crash in loader.go. It then ran the tests!", s.Summary)
			assert.Equal(t, s.Summary, text)
		}},
		{name: "narrative cut at a character", max: 5, check: func(t *testing.T, s prompts.Summary, text string) {
			assert.True(t, strings.HasPrefix(s.Summary, "The agent"), s.Summary)
			assert.True(t, strings.HasSuffix(s.Summary, "…"))
		}},
		{name: "tiny cap keeps a non-empty narrative", max: 1, check: func(t *testing.T, s prompts.Summary, text string) {
			assert.NotEmpty(t, s.Summary)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, text, shrunk := fitSummary(full, tt.max, quarterCount)
			assert.Equal(t, tt.max < fullTok, shrunk)
			assert.LessOrEqual(t, quarterCount(text), tt.max)
			assert.Equal(t, formatSummary(s), text)
			tt.check(t, s, text)
		})
	}
	assert.Equal(t, bigSummary(), full, "the input is not modified")
}

func TestFitSummaryEveryCap(t *testing.T) {
	full := bigSummary()
	for maxTok := 1; maxTok <= quarterCount(formatSummary(full))+1; maxTok++ {
		s, text, _ := fitSummary(full, maxTok, quarterCount)
		require.LessOrEqual(t, quarterCount(text), maxTok, "cap %d", maxTok)
		require.NoError(t, s.Validate(), "cap %d", maxTok)
	}
}

func TestCutHeadTail(t *testing.T) {
	assert.Equal(t, "short", cutHeadTail("short", 10))
	got := cutHeadTail("0123456789abcdefghij", 9)
	assert.Equal(t, "012345\n[… 11 characters cut …]\nhij", got)
	assert.Equal(t, "\n[… 3 characters cut …]\n", cutHeadTail("éàü", 0))
}
