"""The parts of the synthetic dataset, one module each (detect tiles, crops, val scenes, text crops),
and what they share: the worker state and seeding, the pool, random draws, scene framing, the manifest.
`vision.synth.dataset.generate` runs the deck parts; `textcrops.generate_text_crops` runs the text part."""
