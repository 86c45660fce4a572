package transcripts

import json "github.com/goccy/go-json"

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
