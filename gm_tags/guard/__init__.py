"""What keeps a server's chats to the people they belong to: API keys naming tenants
(`keys`), the checks every request passes before it reaches a route (`http`: the Host header,
the key, the Origin of a state-changing request, JSON content types), and the refusal to listen
beyond loopback without keys (`listening`). docs/security.md has the threat model."""
