package budget

import (
	"fmt"
	"testing"
)

func zzPieces(s string) string {
	enc, _ := loadEncoder(EncodingO200k)
	out := ""
	for i := 0; i < len(s); {
		j := nextO200k(s, i)
		out += fmt.Sprintf("%q:%d ", s[i:j], enc.ranks.count(s[i:j]))
		i = j
	}
	return out
}

func TestZZPieces(t *testing.T) {
	noMargin := defaultEst
	noMargin.marginPct = 100
	for _, s := range []string{"call_2oRVlzswhUOTAgegHKEyEvnz", "toolu_01VYwnrrRe5K7mz9rYJsooWx", "call_MY94XAcnfHzfAZcVHqt5FRRQ", "/tmp/tmpqwh7888i/src/lib.rs", "OBUT9V", `{"reservation_id":"HATHAT","total_baggages":3,"nonfree_baggages":0,"payment_id":"credit_card_7407366"}`, "ethan_martin_2396", "972.0", "1023.0", "Exit code 127", "Bash", "think", "search_direct_flight", "[]"} {
		enc, _ := loadEncoder(EncodingO200k)
		fmt.Printf("%q o200k=%d units=%d est=%d\n   %s\n", s, enc.count(s), estimateWith(s, &noMargin), EstimateTokens(s), zzPieces(s))
	}
}
