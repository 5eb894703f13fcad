"""The agent protocol: one source of prompts, parsing, the self-calibration trigger and rewards,
imported alike by inference, training, data building and evaluation."""
