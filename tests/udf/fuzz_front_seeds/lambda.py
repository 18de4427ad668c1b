lambda s: s.upper() if s else None
