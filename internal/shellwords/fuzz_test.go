package shellwords

import (
	"strings"
	"testing"
)

// FuzzParse checks that Lex and Parse never panic, that Parse's commands
// are made of Lex's tokens, and that a word never holds a byte the input
// does not.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"cat <<'EOF' > a.py\nx\nEOF\npython a.py && grep -rn 'x' src/ | head",
		"A=1 sudo -E timeout 30 env -i x 2>&1 >>log; { y; } (z) $(q (r)) # c",
		"cat <<-X <<<s 3<&0 &>f |& g\n\tX\n",
		`echo "a \" \\ $x` + "`" + `" 'b` + "\\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Lex(s)
		words := 0
		for _, tok := range toks {
			if tok.Kind < Word || tok.Kind > HereBody {
				t.Fatalf("token of no kind: %+v", tok)
			}
			if tok.Kind == Word {
				words++
			}
		}
		args := 0
		for _, c := range Parse(s) {
			args += len(c.Args)
			for _, a := range c.Args {
				for i := 0; i < len(a); i++ {
					if strings.IndexByte(s, a[i]) < 0 {
						t.Fatalf("byte %q of %q is not in the input", a[i], a)
					}
				}
			}
		}
		if args > words {
			t.Fatalf("%d arguments from %d words", args, words)
		}
	})
}
