"""One module per wire format the proxy speaks, each around the protocol-neutral hop
(`gm_tags.proxy.hop`): OpenAI's chat completions (`openai`), Anthropic's Messages
(`anthropic`)."""
