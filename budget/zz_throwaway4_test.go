package budget

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestZZRandom(t *testing.T) {
	enc, _ := loadEncoder(EncodingO200k)
	rng := rand.New(rand.NewPCG(3, 4))
	alph := map[string]string{
		"base62": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		"hexlow": "0123456789abcdef",
		"hexup":  "0123456789ABCDEF",
		"lower":  "abcdefghijklmnopqrstuvwxyz",
		"upper":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
		"lowdig": "abcdefghijklmnopqrstuvwxyz0123456789",
		"updig":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		"mixcase":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	}
	noMargin := defaultEst
	noMargin.marginPct = 100
	for _, L := range []int{6, 8, 12, 24, 64} {
		for name, a := range alph {
			x, e, c := 0, 0, 0
			for k := 0; k < 2000; k++ {
				b := make([]byte, L)
				for i := range b {
					b[i] = a[rng.IntN(len(a))]
				}
				s := " " + string(b)
				x += enc.count(s)
				e += estimateWith(s, &noMargin)
				c += L + 1
			}
			fmt.Printf("L=%2d %-8s chars/tok=%.2f units/o200k=%.2f\n", L, name, float64(c)/float64(x), float64(e)/float64(x))
		}
	}
}
