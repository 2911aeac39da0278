/**
 * The request front door: one servlet filter that classifies every request into a route from the
 * container-normalized path ({@link io.muster.web.Router}), decides access from the endpoint table
 * ({@link io.muster.web.Endpoint}, {@link io.muster.web.Access}: every endpoint's method, paths, access and road,
 * declared there once), answers the hot endpoints itself ({@link io.muster.web.FastPaths}) and hands the rest to
 * Jersey with the canonical path. May import {@code api}, {@code metrics}, {@code cache}, {@code registry},
 * {@code files}, {@code changes} (the window its change streams send from) and {@code audit} (writes it refuses
 * for want of ownership are audited where they are refused). Not {@code config}: its settings come in as values of
 * its own ({@link io.muster.web.FrontDoor.LargeWrites}, {@link io.muster.web.ChangeStreams.Limits}).
 */
package io.muster.web;
