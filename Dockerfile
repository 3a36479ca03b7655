# The lifesciences-mcp container image: the gateway, FROM scratch, as a non-root user,
# serving Streamable HTTP on port 8000. `docker build .` builds it from this checkout.
#
# The same image as packaging/image/build.sh makes with buildah from a release binary:
# both stage the image's files with packaging/image/rootfs.sh, and build.sh reads the
# configuration below (user, working directory, environment, entrypoint, command, port,
# stop signal and the labels without a build argument) from this file, so each is written
# once. packaging/image/README.md explains the image; packaging/README.md the two builds.
#
#   docker build -t lifesciences-mcp \
#     --build-arg VERSION=0.1.0 --build-arg REVISION=$(git rev-parse HEAD) .

# The official Rust image on Debian 12, whose stable toolchain rust-toolchain.toml asks
# for; its glibc, libgcc and CA bundle go into the image.
ARG RUST_IMAGE=rust:1-bookworm

FROM ${RUST_IMAGE} AS build
ARG REVISION=""
WORKDIR /src
COPY . .
# The commit `--version` names, as a release build bakes it in (empty: none named).
ENV LIFESCIENCES_GIT_REVISION=${REVISION}
# The workspace's release profile (Cargo.toml, [profile.release]), as cargo-dist builds
# the release archives; the toolchain the image has, not another one downloaded.
RUN RUSTUP_TOOLCHAIN="$(rustup default | cut -d' ' -f1)" \
    cargo build --release --locked -p lifesciences-mcp --bin lifesciences-mcp
RUN packaging/image/rootfs.sh target/release/lifesciences-mcp /rootfs \
    && mkdir /homes \
    && mv /rootfs/home/nonroot /homes/nonroot

FROM scratch
COPY --from=build /rootfs/ /
# The user's home, the one thing the user owns.
COPY --from=build --chown=65532:65532 /homes/ /home/
ARG VERSION=""
ARG REVISION=""
USER 65532:65532
WORKDIR /home/nonroot
ENV PATH=/usr/local/bin:/usr/bin:/bin
ENTRYPOINT ["/usr/local/bin/lifesciences-mcp"]
CMD ["serve", "--http", "0.0.0.0:8000"]
EXPOSE 8000/tcp
STOPSIGNAL SIGTERM
# The MCP registry checks that an image belongs to the server it lists with this label.
LABEL io.modelcontextprotocol.server.name="io.github.lifesciences-mcp/lifesciences-mcp"
LABEL org.opencontainers.image.title="lifesciences-mcp"
LABEL org.opencontainers.image.description="One MCP server for STRING, Ensembl, ChEMBL, the IGVF Catalog and UniProt, with identifiers that cross over"
LABEL org.opencontainers.image.source="https://github.com/lifesciences-mcp/lifesciences-mcp"
LABEL org.opencontainers.image.url="https://github.com/lifesciences-mcp/lifesciences-mcp"
LABEL org.opencontainers.image.documentation="https://github.com/lifesciences-mcp/lifesciences-mcp/tree/main/packaging/image"
LABEL org.opencontainers.image.licenses="MIT OR Apache-2.0"
LABEL org.opencontainers.image.version="${VERSION}"
LABEL org.opencontainers.image.revision="${REVISION}"
