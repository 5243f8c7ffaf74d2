package shellwords

import "strings"

// MaxBytes bounds the part of a command line that [Lex] and [Parse] read;
// the rest is ignored.
const MaxBytes = 256 << 10

// Kind is the kind of a [Token].
type Kind uint8

// The kinds of tokens.
const (
	// Word is a word with its quotes and escapes removed; a command
	// substitution "$(...)" stays in its word as written.
	Word Kind = iota + 1
	// Operator is a control operator: "&&", "||", "|", "|&", "&", ";",
	// ";;", "(", ")", "{", "}" or "\n" (a newline ends a command too).
	Operator
	// Redirect is a redirection: Op is its operator with its file
	// descriptor ("<", ">", ">>", ">|", "2>", "&>", "<<<", "2>&", ...) and
	// Text its target. A duplication of a file descriptor ("2>&1") has a
	// target that starts with "&" ("&1").
	Redirect
	// HereDoc is a here-document operator: Op is "<<" or "<<-" and Text the
	// delimiter, quotes removed.
	HereDoc
	// HereBody is the body of a here-document: one token per HereDoc token
	// of a line, in their order, right after the newline that ends that
	// line; each line of the body ends with "\n". A here-document on the
	// last line of the input has no body and so no HereBody token.
	HereBody
)

// Token is one token of a command line.
type Token struct {
	Kind Kind
	// Text is the word, the operator, the redirection's target, the
	// here-document's delimiter or its body.
	Text string
	// Op is the operator of a Redirect or HereDoc token, "" otherwise.
	Op string
}

// Lex splits a command line into tokens, in the order they stand in it;
// comments are dropped. It reads at most the first [MaxBytes] bytes of
// line and never fails: unterminated quotes and substitutions run to the
// end of the input.
func Lex(line string) []Token {
	var toks []Token
	scan(line, func(t Token) { toks = append(toks, t) })
	return toks
}

// scan lexes line, handing each token to emit in order.
func scan(line string, emit func(Token)) {
	if len(line) > MaxBytes {
		line = line[:MaxBytes]
	}
	l := lexer{s: line, emit: emit}
	for l.i < len(l.s) {
		l.step()
	}
	l.endWord()
}

// lexer is the state of one scan.
type lexer struct {
	s      string
	i      int // the next byte to read
	emit   func(Token)
	word   strings.Builder
	inWord bool
	// pending are the here-documents whose bodies start after the next
	// newline.
	pending []hereDoc
}

// hereDoc is a here-document whose body is still to be read.
type hereDoc struct {
	delim string
	strip bool // "<<-": leading tabs are stripped from the delimiter line
}

// step reads one token's worth (or one byte of a word) at l.i.
func (l *lexer) step() {
	s, c := l.s, l.s[l.i]
	switch {
	case c == '\\':
		l.escape()
	case c == '\'':
		l.singleQuoted()
	case c == '"':
		l.doubleQuoted()
	case c == '$' && l.i+1 < len(s) && s[l.i+1] == '(':
		l.substitution()
	case c == '#' && !l.inWord:
		l.comment()
	case c == '\n':
		l.operator("\n", 1)
		if len(l.pending) > 0 {
			l.hereBodies()
		}
	case c == ' ' || c == '\t' || c == '\r':
		l.endWord()
		l.i++
	case c == ';' || c == '(' || c == ')' || c == '{' && !l.inWord && l.i+1 < len(s) && (s[l.i+1] == ' ' || s[l.i+1] == '\n') || c == '}' && !l.inWord:
		if c == ';' && l.i+1 < len(s) && s[l.i+1] == ';' {
			l.operator(";;", 2)
		} else {
			l.operator(string(c), 1)
		}
	case c == '&':
		l.ampersand()
	case c == '|':
		l.pipe()
	case c == '>' || c == '<':
		fd := ""
		if l.inWord && isDigits(l.word.String()) {
			fd = l.word.String()
			l.word.Reset()
			l.inWord = false
		}
		l.redirect(fd)
	default:
		l.word.WriteByte(c)
		l.inWord = true
		l.i++
	}
}

// endWord emits the word being read, if any.
func (l *lexer) endWord() {
	if !l.inWord {
		return
	}
	w := l.word.String()
	l.word.Reset()
	l.inWord = false
	l.emit(Token{Kind: Word, Text: w})
}

// operator ends the word being read and emits op, n bytes long.
func (l *lexer) operator(op string, n int) {
	l.endWord()
	l.emit(Token{Kind: Operator, Text: op})
	l.i += n
}

// escape reads a backslash: a line continuation, or the escaped byte.
func (l *lexer) escape() {
	s := l.s
	if l.i+1 >= len(s) {
		l.i++
		return
	}
	if s[l.i+1] != '\n' {
		l.word.WriteByte(s[l.i+1])
		l.inWord = true
	}
	l.i += 2
}

// singleQuoted reads '...' into the word.
func (l *lexer) singleQuoted() {
	s := l.s
	j := strings.IndexByte(s[l.i+1:], '\'')
	if j < 0 {
		l.word.WriteString(s[l.i+1:])
		l.i = len(s)
	} else {
		l.word.WriteString(s[l.i+1 : l.i+1+j])
		l.i += j + 2
	}
	l.inWord = true
}

// doubleQuoted reads "..." into the word: a backslash escapes ", \, $, `
// and a newline (a line continuation).
func (l *lexer) doubleQuoted() {
	s := l.s
	l.i++
	for l.i < len(s) && s[l.i] != '"' {
		if s[l.i] == '\\' && l.i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[l.i+1]) >= 0 {
			if s[l.i+1] != '\n' {
				l.word.WriteByte(s[l.i+1])
			}
			l.i += 2
			continue
		}
		l.word.WriteByte(s[l.i])
		l.i++
	}
	l.i++
	l.inWord = true
}

// substitution reads a command substitution "$(...)", balanced, into the
// word as written.
func (l *lexer) substitution() {
	s := l.s
	depth := 0
	start := l.i
	for l.i < len(s) {
		if s[l.i] == '(' {
			depth++
		} else if s[l.i] == ')' {
			depth--
			if depth == 0 {
				l.i++
				break
			}
		}
		l.i++
	}
	l.word.WriteString(s[start:l.i])
	l.inWord = true
}

// comment skips a comment up to the end of its line.
func (l *lexer) comment() {
	j := strings.IndexByte(l.s[l.i:], '\n')
	if j < 0 {
		l.i = len(l.s)
	} else {
		l.i += j
	}
}

// ampersand reads "&&", "&>" (a redirection) or "&".
func (l *lexer) ampersand() {
	switch next := l.peek(1); next {
	case '&':
		l.operator("&&", 2)
	case '>':
		l.redirect("&>")
	default:
		l.operator("&", 1)
	}
}

// pipe reads "||", "|&" or "|".
func (l *lexer) pipe() {
	switch l.peek(1) {
	case '|':
		l.operator("||", 2)
	case '&':
		l.operator("|&", 2)
	default:
		l.operator("|", 1)
	}
}

// peek returns the byte n bytes after l.i, 0 past the end.
func (l *lexer) peek(n int) byte {
	if l.i+n < len(l.s) {
		return l.s[l.i+n]
	}
	return 0
}

// redirect reads a redirection operator at l.i (prefix holds its file
// descriptor, or "&>" when the operator is "&>"), then its target word,
// and emits the Redirect or HereDoc token.
func (l *lexer) redirect(prefix string) {
	l.endWord()
	op := l.redirectOp(prefix)
	for l.i < len(l.s) && (l.s[l.i] == ' ' || l.s[l.i] == '\t') {
		l.i++
	}
	target := l.redirectTarget()
	switch {
	case strings.HasPrefix(op, "<<") && op != "<<<":
		l.pending = append(l.pending, hereDoc{delim: target, strip: strings.HasSuffix(op, "-")})
		l.emit(Token{Kind: HereDoc, Text: target, Op: op})
	case strings.HasSuffix(op, "&") && op != "&>": // fd duplication: 2>&1
		l.emit(Token{Kind: Redirect, Text: "&" + target, Op: op})
	default:
		l.emit(Token{Kind: Redirect, Text: target, Op: op})
	}
}

// redirectOp reads the operator of a redirection at l.i: "<", ">", "<<",
// ">>", ">|", "<<<", "<<-", with a trailing "&" for a duplication, after
// prefix; "&>" is read whole.
func (l *lexer) redirectOp(prefix string) string {
	s := l.s
	if prefix == "&>" {
		l.i += 2
		return prefix
	}
	c := s[l.i]
	op := prefix + string(c)
	l.i++
	if l.i < len(s) && (s[l.i] == c || (c == '>' && s[l.i] == '|')) {
		op += string(s[l.i])
		l.i++
	}
	if c == '<' && strings.HasSuffix(op, "<<") && l.i < len(s) && s[l.i] == '<' {
		op += "<"
		l.i++
	}
	if l.i < len(s) && s[l.i] == '&' { // 2>&1, >&2
		op += "&"
		l.i++
	}
	if strings.HasSuffix(op, "<<") && l.i < len(s) && s[l.i] == '-' {
		op += "-"
		l.i++
	}
	return op
}

// redirectTarget reads the target word of a redirection at l.i, quotes
// and escapes removed, up to a blank or an operator.
func (l *lexer) redirectTarget() string {
	s := l.s
	var target strings.Builder
	for l.i < len(s) {
		c := s[l.i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == ')' || c == '\r' {
			break
		}
		if c == '\'' || c == '"' {
			j := strings.IndexByte(s[l.i+1:], c)
			if j < 0 {
				target.WriteString(s[l.i+1:])
				l.i = len(s)
				break
			}
			target.WriteString(s[l.i+1 : l.i+1+j])
			l.i += j + 2
			continue
		}
		if c == '\\' && l.i+1 < len(s) {
			target.WriteByte(s[l.i+1])
			l.i += 2
			continue
		}
		target.WriteByte(c)
		l.i++
	}
	return target.String()
}

// hereBodies reads the bodies of the pending here-documents, starting at
// l.i (just after a newline), and emits them.
func (l *lexer) hereBodies() {
	for _, h := range l.pending {
		var body strings.Builder
		for l.i < len(l.s) {
			line := l.nextLine()
			cmp := strings.TrimRight(line, "\r")
			if h.strip {
				cmp = strings.TrimLeft(cmp, "\t")
			}
			if cmp == h.delim {
				break
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		l.emit(Token{Kind: HereBody, Text: body.String()})
	}
	l.pending = l.pending[:0]
}

// nextLine returns the line at l.i without its newline and moves past it.
func (l *lexer) nextLine() string {
	rest := l.s[l.i:]
	j := strings.IndexByte(rest, '\n')
	if j < 0 {
		l.i = len(l.s)
		return rest
	}
	l.i += j + 1
	return rest[:j]
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	return s != "" && strings.TrimLeft(s, "0123456789") == ""
}
