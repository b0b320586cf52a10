//! oxla-builder: the `XlaBuilder` API over the HLO IR.
