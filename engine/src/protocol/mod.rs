//! The engine protocols (UCI, CECP, USI) over one engine controller.
