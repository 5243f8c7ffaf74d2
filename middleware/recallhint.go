package middleware

import (
	"regexp"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/recall"
	"github.com/tmc/langchaingo/llms"
)

// toolListRecall finds the recall tool in a text agent's tool list
// (langchaingo's agents list each tool as "- name: description").
var toolListRecall = regexp.MustCompile(`(?m)^\s*-?\s*` + regexp.QuoteMeta(recall.Name) + `:`)

// offersRecall reports whether a call offers the model the recall tool
// (package recall): the call's tools (llms.WithTools) or functions
// (llms.WithFunctions) include one named recall.Name, or, for a text
// agent's prompt, its tool list does. The summary points to the recall
// tool only then (compact.WithRecallHint).
func offersRecall(options []llms.CallOption, tp *textPrompt) bool {
	if tp != nil && toolListRecall.MatchString(tp.head) {
		return true
	}
	var co llms.CallOptions
	for _, o := range options {
		if o != nil {
			o(&co)
		}
	}
	for _, t := range co.Tools {
		if t.Function != nil && t.Function.Name == recall.Name {
			return true
		}
	}
	for _, f := range co.Functions {
		if f.Name == recall.Name {
			return true
		}
	}
	return false
}

// recallHintOption is the engine call option of a call's recall hint
// (see offersRecall).
func recallHintOption(options []llms.CallOption, tp *textPrompt) compact.CallOption {
	return compact.WithRecallHint(offersRecall(options, tp))
}
