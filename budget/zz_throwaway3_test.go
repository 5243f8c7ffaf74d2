package budget

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

func zzVowels(s string) (v, n int) {
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' {
			n++
			if strings.ContainsRune("aeiouy", c) {
				v++
			}
		}
	}
	return
}

func zzCat(p string) string {
	body := p
	pre := ""
	f, sz := at(p, 0)
	if len(p) > sz && isPrefix(f) && f&fSpace == 0 {
		if g, _ := at(p, sz); g&fL != 0 {
			pre, body = "p", p[sz:]
		}
	}
	if p[0] == ' ' && len(p) > 1 {
		if g, _ := at(p, 1); g&fL != 0 {
			pre, body = "s", p[1:]
		}
	}
	g, _ := at(body, 0)
	switch {
	case g&fL != 0:
		up, low, hi := 0, 0, 0
		for _, c := range body {
			switch {
			case c >= 'A' && c <= 'Z':
				up++
			case c >= 'a' && c <= 'z':
				low++
			default:
				hi++
			}
		}
		k := ""
		switch {
		case hi > 0:
			k = "Lx"
		case up == 0:
			k = "Llow"
		case up == 1 && low > 0:
			k = "LCap"
		case low == 0:
			k = "LUPPER"
		default:
			k = "LUPlow"
		}
		if hi == 0 {
			v, n := zzVowels(body)
			if n >= 3 && float64(v)/float64(n) < 0.25 {
				k += "-novowel"
			}
		}
		return pre + k
	case g&fN != 0:
		return "digits"
	case g&fCRLF != 0 || strings.TrimLeft(body, " \t") != "" && strings.Trim(body, " \t\r\n") == "":
		return "newline"
	case g&fSpace != 0:
		return "space"
	default:
		if body[0] >= 0x80 {
			return "nonascii-sym"
		}
		return "punct"
	}
}

func TestZZCats(t *testing.T) {
	trajs := loadCorpus(t)
	enc, _ := loadEncoder(EncodingO200k)
	noMargin := defaultEst
	noMargin.marginPct = 100
	type agg struct{ n, x, e int; ex map[string]int }
	cats := map[string]*agg{}
	for _, msgs := range trajs {
		for _, m := range msgs {
			for _, s := range messageTexts(m) {
				for i := 0; i < len(s); {
					j := nextO200k(s, i)
					p := s[i:j]
					c := zzCat(p)
					a := cats[c]
					if a == nil {
						a = &agg{ex: map[string]int{}}
						cats[c] = a
					}
					a.n++
					x := enc.ranks.count(p)
					e := estimateWith(p, &noMargin)
					a.x += x
					a.e += e
					if x > e && len(a.ex) < 400 {
						a.ex[fmt.Sprintf("%q %d/%d", p, e, x)]++
					}
					i = j
				}
			}
		}
	}
	var keys []string
	for k := range cats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a := cats[k]
		var exs []string
		for e := range a.ex {
			exs = append(exs, e)
		}
		sort.Strings(exs)
		if len(exs) > 12 {
			exs = exs[:12]
		}
		fmt.Printf("%-22s n=%7d o200k=%7d units=%7d ratio=%.3f  %s\n", k, a.n, a.x, a.e, float64(a.e)/float64(a.x), strings.Join(exs, " "))
	}
}
