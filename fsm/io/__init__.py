"""Reading users' files and printing what comes from them: scenarios and
event logs, JSON and YAML with limits against hostile documents, and text
made safe for a terminal."""
