//go:build ignore

package client

// Do sends req, retrying up to three times with exponential backoff.
func (c *Client) Do(req *Request) (*Response, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *Response
		if resp, err = c.send(req); err == nil {
			return resp, nil
		}
		c.sleep(c.base << attempt) // 100 ms, 200 ms, 400 ms
	}
	return nil, err
}
