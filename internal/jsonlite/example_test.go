package jsonlite_test

import (
	"fmt"

	"github.com/parleyhq/parley/internal/jsonlite"
)

func ExampleAppendString() {
	fmt.Println(string(jsonlite.AppendString([]byte(`{"text":`), "<b>\"hi\"</b>\n\xff")) + "}")
	// Output: {"text":"\u003cb\u003e\"hi\"\u003c/b\u003e\n\ufffd"}
}

func ExampleReader() {
	r := jsonlite.NewReader([]byte(`{"name":"GoldFalcon","pid":4242,"roles":["judge"],"extra":{"x":[1.5,null]}}`))
	var name string
	var pid int64
	for key := range r.Object() {
		switch string(key) {
		case "name":
			name = r.String()
		case "pid":
			pid = r.Int()
		default:
			r.Skip()
		}
	}
	if err := r.End(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(name, pid)
	// Output: GoldFalcon 4242
}
