// Placeholder so a subsystem library with no sources yet still links.
