package main

import (
	"encoding/json"
	"github.com/agentcompact/compact/internal/msg"
	"regexp"
	"strings"

	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/tmc/langchaingo/llms"
)

// factKind is a category of facts whose retention is measured.
type factKind int

// The fact categories. Their precise definitions are in factDefinitions.
const (
	factPaths factKind = iota
	factExceptions
	factExits
	factInstructions
	factIdentifiers
	numFactKinds
)

var factNames = [numFactKinds]string{"paths", "exceptions", "exit statuses", "instructions", "identifiers"}

// String returns the category's name.
func (k factKind) String() string {
	if k >= 0 && k < numFactKinds {
		return factNames[k]
	}
	return "unknown"
}

// factDefinitions documents each category for the report; they describe
// what extractFacts and visible implement.
var factDefinitions = [numFactKinds]string{
	"**File paths of tool calls.** For shell tools (`bash`, `sh`, `shell`, `execute_bash`, `run_command`, `terminal`): " +
		"the words of the command (quote-aware, heredoc bodies skipped) that contain a `/` or end in a common file extension, " +
		"excluding options, URLs, globs, variables, `cd` targets, `/dev/*`, the pattern or script argument of grep/sed/awk/perl, " +
		"the code of `python -c`, and `echo`/`printf` arguments; redirection targets count. For every tool, at any depth of nested " +
		"objects and arrays (Moatless' `{\"files\": [{\"file_path\": ...}]}`): the string values, alone or in arrays, of the arguments " +
		"whose name ends in a word of a path (`path`, `paths`, `file`, `files`, `file_name`, `file_path`, `dir`, `directory`, " +
		"`folder`: `notebook_path`, `target_file`, `open_file`, `output_dir`, ...) and are path words, and of `src`, `dst`, " +
		"`source`, `dest`, `destination`, `target`, `root` and `file_pattern` when they look like paths (a `/` or a common file " +
		"extension, no glob) " +
		"(internal/callpaths, which the extractors use too). Leading `./` and trailing `/` are " +
		"stripped; distinct paths per run. *Visible* when the path occurs as a substring anywhere in the text sent " +
		"(message texts, tool call arguments, tool results, summaries).",
	"**Exception names in tool outputs.** The last dotted component of an identifier ending in `Error` or `Exception` " +
		"(e.g. `ValidationError`) that a tool output reports as raised: an unindented line `Name` or `Name: message` in an " +
		"output holding a Python traceback (`Traceback (most recent call last)`), or in an output with a non-zero exit status; " +
		"a pytest line `E   Name: ...`; a pytest summary line `FAILED|ERROR <test> - Name...`. Names merely present in " +
		"source code that was read do not count. Distinct names per run. *Visible* when the name occurs anywhere in the text sent.",
	"**Non-zero exit statuses.** Every tool output that starts with mini-swe-agent's `<returncode>N</returncode>` with N ≠ 0 " +
		"(the corpus' only explicit exit status), one fact per tool call. *Visible* when (a) the call's tool result is in the " +
		"context sent and its content shows the status (`<returncode>N</returncode>`, or `exit N`, `exit code N`, `exit status N`, " +
		"`returncode N`, `rc N`, `status N`), or (b) the call's result is absent and some line of the text sent holds the first " +
		"40 bytes of the command's first line followed by a status N as the first status shown after it on that line.",
	"**The user's instructions.** The sentences (split at `.`, `!`, `?` followed by white space, and at line breaks) of " +
		"user messages, white space collapsed, at least 20 bytes long, that contain one of: must, should, do not, don't, never, " +
		"always, make sure, ensure, please, only, avoid, remember, required, need to, important. Distinct sentences per run. " +
		"*Visible* when the sentence's first 60 bytes occur in the white-space-collapsed text sent.",
	"**Identifiers returned by tools.** In tool outputs that are JSON (an object or an array, possibly nested), the string " +
		"and integer values of the keys `id`, `*_id`, `*_ids`, `*_number`, `*Id`, `*ID`, `*Ids` and `*Number` (arrays of them " +
		"included), at least 3 bytes long and without white space: reservation ids, user ids, payment ids, flight numbers. " +
		"Distinct values per run. *Visible* when the value occurs anywhere in the text sent.",
}

// fact is one fact of the original conversation.
type fact struct {
	kind factKind
	// key identifies the fact: the path, the exception name, the
	// instruction's visible prefix, or the tool call id of an exit status.
	key string
	// code and cmd are the status and command key of an exit status.
	code, cmd string
}

var (
	// excName matches a dotted identifier ending in Error or Exception;
	// group 1 is its last component.
	excLineRe   = regexp.MustCompile(`^(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))(?::|\s*$)`)
	excPytestRe = regexp.MustCompile(`^E\s+(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))(?::|\s*$)`)
	excFailedRe = regexp.MustCompile(`^(?:FAILED|ERROR) \S+ - (?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))\b`)
	returnRe    = regexp.MustCompile(`^<returncode>(-?\d+)</returncode>`)
	instrRe     = regexp.MustCompile(`(?i)\b(?:must|should|do not|don't|never|always|make sure|ensure|please|only|avoid|remember|required|need to|important)\b`)
	sentenceRe  = regexp.MustCompile(`[.!?](?:\s+|$)|\n+`)
	spaceRe     = regexp.MustCompile(`\s+`)
	hspaceRe    = regexp.MustCompile(`[ \t\r\f\v]+`)
)

// instrPrefix is how many bytes of an instruction must be visible.
const instrPrefix = 60

// cmdKeyBytes is how many bytes of a command's first line identify it.
const cmdKeyBytes = 40

// extractFacts returns the facts of msgs, the original conversation, each
// category deduplicated, in order of first appearance. msgs is not modified.
func extractFacts(msgs []llms.MessageContent) []fact {
	var out []fact
	seen := map[[2]string]bool{}
	add := func(f fact) {
		k := [2]string{factNames[f.kind], f.key}
		if f.key == "" || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, f)
	}
	calls := map[string]llms.FunctionCall{}
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.ToolCall:
				if p.FunctionCall == nil {
					continue
				}
				calls[p.ID] = *p.FunctionCall
				for _, path := range callpaths.Call(p.FunctionCall.Name, p.FunctionCall.Arguments) {
					add(fact{kind: factPaths, key: path})
				}
			case llms.ToolCallResponse:
				code := ""
				if m := returnRe.FindStringSubmatch(p.Content); m != nil && m[1] != "0" {
					code = m[1]
					add(fact{kind: factExits, key: p.ToolCallID, code: code, cmd: commandKey(calls[p.ToolCallID])})
				}
				for _, name := range exceptionNames(p.Content, code != "") {
					add(fact{kind: factExceptions, key: name})
				}
				for _, id := range jsonIdentifiers(p.Content) {
					add(fact{kind: factIdentifiers, key: id})
				}
			case llms.TextContent:
				if m.Role != llms.ChatMessageTypeHuman {
					continue
				}
				for _, s := range instructions(p.Text) {
					add(fact{kind: factInstructions, key: s})
				}
			}
		}
	}
	return out
}

// commandKey returns the first cmdKeyBytes bytes of the first line of the
// call's command (white space collapsed), or "" when it has none.
func commandKey(fc llms.FunctionCall) string {
	var m map[string]any
	if json.Unmarshal([]byte(fc.Arguments), &m) != nil {
		return ""
	}
	cmd, _ := m["command"].(string)
	cmd = strings.TrimSpace(cmd)
	if i := strings.IndexByte(cmd, '\n'); i >= 0 {
		cmd = cmd[:i]
	}
	return msg.HeadBytes(spaceRe.ReplaceAllString(strings.TrimSpace(cmd), " "), cmdKeyBytes)
}

// exceptionNames returns the exception names a tool output reports as
// raised (see factDefinitions); failed says the output has a non-zero exit
// status.
func exceptionNames(out string, failed bool) []string {
	tb := strings.Contains(out, "Traceback (most recent call last)")
	var names []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := excPytestRe.FindStringSubmatch(line); m != nil {
			names = append(names, m[1])
		} else if m := excFailedRe.FindStringSubmatch(line); m != nil {
			names = append(names, m[1])
		} else if tb || failed {
			// mini-swe-agent wraps outputs in <output>; its first line may carry the name.
			line = strings.TrimPrefix(line, "<output>")
			if m := excLineRe.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
			}
		}
	}
	return names
}

// instructions returns the instruction sentences of a user text, white
// space collapsed, cut to their visible prefix (see factDefinitions).
func instructions(text string) []string {
	var out []string
	last := 0
	emit := func(s string) {
		s = strings.TrimSpace(spaceRe.ReplaceAllString(s, " "))
		if len(s) >= 20 && instrRe.MatchString(s) {
			out = append(out, msg.HeadBytes(s, instrPrefix))
		}
	}
	for _, loc := range sentenceRe.FindAllStringIndex(text, -1) {
		end := loc[0]
		if text[loc[0]] != '\n' {
			end++
		}
		emit(text[last:end])
		last = loc[1]
	}
	emit(text[last:])
	return out
}

// sentView is the text of a context as sent, indexed for visibility checks.
type sentView struct {
	flat    string            // all texts, white space collapsed
	lines   string            // all texts, horizontal white space collapsed, lines kept
	outputs map[string]string // tool call id -> its result's content
}

func newSentView(sent []llms.MessageContent) sentView {
	var b strings.Builder
	v := sentView{outputs: map[string]string{}}
	for _, m := range sent {
		msg.WriteText(&b, m)
		for _, p := range m.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				v.outputs[r.ToolCallID] += r.Content
			}
		}
	}
	raw := b.String()
	v.flat = spaceRe.ReplaceAllString(raw, " ")
	v.lines = hspaceRe.ReplaceAllString(raw, " ")
	return v
}

// exitPattern returns the regexp of a visible exit status code.
func exitPattern(code string) *regexp.Regexp {
	c := regexp.QuoteMeta(code)
	return regexp.MustCompile(`<returncode>` + c + `</returncode>|(?i)\b(?:exit(?:ed)?(?:[ _](?:code|status))?|return ?code|rc|status)\s*[:=]?\s*\(?` + c + `\b`)
}

// anyExitRe matches any shown exit status; group 1 or 2 is the code.
var anyExitRe = regexp.MustCompile(`<returncode>(-?\d+)</returncode>|(?i)\b(?:exit(?:ed)?(?:[ _](?:code|status))?|return ?code|rc|status)\s*[:=]?\s*\(?(-?\d+)\b`)

// visible reports whether f is visible in v (see factDefinitions).
func (v sentView) visible(f fact) bool {
	switch f.kind {
	case factPaths, factExceptions, factInstructions, factIdentifiers:
		return strings.Contains(v.flat, f.key)
	case factExits:
		if out, ok := v.outputs[f.key]; ok {
			return exitPattern(f.code).MatchString(out)
		}
		if f.cmd == "" {
			return false
		}
		for rest := v.lines; ; {
			i := strings.Index(rest, f.cmd)
			if i < 0 {
				return false
			}
			rest = rest[i+len(f.cmd):]
			line := rest
			if j := strings.IndexByte(line, '\n'); j >= 0 {
				line = line[:j]
			}
			if m := anyExitRe.FindStringSubmatch(line); m != nil && (m[1] == f.code || m[2] == f.code) {
				return true
			}
		}
	}
	return false
}

// retention counts, per category, the facts present and visible.
type retention struct {
	present, visible [numFactKinds]int
}

// measureRetention measures which facts of orig are visible in sent.
func measureRetention(orig, sent []llms.MessageContent) retention {
	var r retention
	v := newSentView(sent)
	for _, f := range extractFacts(orig) {
		r.present[f.kind]++
		if v.visible(f) {
			r.visible[f.kind]++
		}
	}
	return r
}
