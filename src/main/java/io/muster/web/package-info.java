/**
 * The request front door: one servlet filter that classifies every request into a route from the
 * container-normalized path ({@link io.muster.web.Router}), decides access from the endpoint table
 * ({@link io.muster.web.Endpoint}, {@link io.muster.web.Access}), answers the hot endpoints itself and hands the rest
 * to Jersey with the canonical path. May import {@code api}, {@code metrics}, {@code cache}, {@code registry} and
 * {@code files}.
 */
package io.muster.web;
