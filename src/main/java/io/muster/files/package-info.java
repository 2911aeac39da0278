/**
 * Files another local user must neither read nor plant: a directory only the server's user can enter, checked
 * without following symbolic links, and owner-only files written into it. Imports nothing from the rest of the
 * project.
 */
package io.muster.files;
