package extractors
import ("testing";"strings")
func BenchmarkTmpOne(b *testing.B){
 var cc corpusCall
 for _, tr := range loadCorpus(b, *corpusDir) { for _, c := range tr.calls { if len(c.output)==45 && strings.Contains(c.call.Arguments,"apply_patch.py") {cc=c} } }
 reg:=Default()
 b.ResetTimer()
 for i:=0;i<b.N;i++{Format(reg.Extract(cc.call,cc.output))}
}
