package shellwords

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLex(t *testing.T) {
	w := func(s string) Token { return Token{Kind: Word, Text: s} }
	op := func(s string) Token { return Token{Kind: Operator, Text: s} }
	tests := []struct {
		name string
		in   string
		want []Token
	}{
		{"quotes", `echo 'a b' "c \"d\"" e\ f`, []Token{w("echo"), w("a b"), w(`c "d"`), w("e f")}},
		{"operators", "a|b && c || d; e & f |& g\nh", []Token{w("a"), op("|"), w("b"), op("&&"), w("c"), op("||"), w("d"), op(";"), w("e"), op("&"), w("f"), op("|&"), w("g"), op("\n"), w("h")}},
		{"redirections", "a 2>&1 >out 2>>err &>all <in <<<str", []Token{w("a"),
			{Kind: Redirect, Op: "2>&", Text: "&1"}, {Kind: Redirect, Op: ">", Text: "out"}, {Kind: Redirect, Op: "2>>", Text: "err"},
			{Kind: Redirect, Op: "&>", Text: "all"}, {Kind: Redirect, Op: "<", Text: "in"}, {Kind: Redirect, Op: "<<<", Text: "str"}}},
		{"quoted target", `cat > 'a b'.txt`, []Token{w("cat"), {Kind: Redirect, Op: ">", Text: "a b.txt"}}},
		{"heredocs", "cat <<-'X' >f <<Y\n\tbody\n\tX\ny\nY\nls", []Token{w("cat"),
			{Kind: HereDoc, Op: "<<-", Text: "X"}, {Kind: Redirect, Op: ">", Text: "f"}, {Kind: HereDoc, Op: "<<", Text: "Y"},
			op("\n"), {Kind: HereBody, Text: "\tbody\n"}, {Kind: HereBody, Text: "y\n"}, w("ls")}},
		{"heredoc on the last line", "cat <<EOF", []Token{w("cat"), {Kind: HereDoc, Op: "<<", Text: "EOF"}}},
		{"comment", "ls # a/b.py\n#x", []Token{w("ls"), op("\n")}},
		{"hash in word", "echo a#b", []Token{w("echo"), w("a#b")}},
		{"substitution", "echo $(ls (x)) y", []Token{w("echo"), w("$(ls (x))"), w("y")}},
		{"braces", "{ a; }", []Token{op("{"), w("a"), op(";"), op("}")}},
		{"brace word", "echo {a,b}", []Token{w("echo"), w("{a,b}")}},
		{"unterminated", `echo "a b`, []Token{w("echo"), w("a b")}},
		{"trailing backslash", `a\`, []Token{w("a")}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Lex(tc.in))
		})
	}
}

func TestLexReadsAtMostMaxBytes(t *testing.T) {
	toks := Lex(strings.Repeat("a ", MaxBytes) + "tail")
	assert.Len(t, toks, MaxBytes/2)
	for _, tok := range toks {
		assert.Equal(t, Token{Kind: Word, Text: "a"}, tok)
	}
}
