package io.muster.model;

/** How an instance in a delta changed. */
public enum ActionType { ADDED, MODIFIED, DELETED }
