/**
 * The Zarr format, versions 2 and 3: metadata, data types, fill values, chunk keys, codecs and the arrays and groups
 * that read and write chunks through a {@link io.cubed.storage.Store}. The only package that knows the format. As in
 * zarr-java, the two versions are kept apart (v2 files say {@code Zarr…}/{@code V2…} without a 3, v3 files {@code V3…}
 * or {@code ZarrV3…}) and share only the pieces listed under "both versions".
 *
 * <p>Which file holds what:
 *
 * <ul>
 *   <li>Entry points: {@code Zarr} (open an array of either version, node type, chunk count); {@code ZarrNode} (a
 *       node and its members read in few round trips); {@code ZarrFormat} (the format {@code toZarr} writes in); {@code
 *       ZarrArrayCore} (what arrays of both versions do alike: the store opened once per copy, missing chunks as the
 *       fill value, reads ahead, counting stored chunks), which {@code ZarrArray} and {@code ZarrV3Array} extend.
 *   <li>Zarr v2 arrays: {@code ZarrArray} (opening, creating, options, attributes; the public face);
 *       {@code V2ChunkReads} (a stored chunk's bytes read, decompressed and decoded: whole, block by block, into
 *       boxes, as a stream or into the caller's chunks); {@code V2ChunkWrites} (a chunk checked, padded, encoded,
 *       compressed and put, or skipped when empty; from a stream of elements too); {@code StreamedRawBytes} (a stream
 *       of elements as raw bytes for a codec that encodes in order); {@code ZstdStreaming} (zstd frames compressed a
 *       piece at a time, into an array or straight to a store); {@code ZarrV2Metadata} ({@code .zarray}); {@code
 *       ZarrCreateOptions}; {@code ZarrDataType} (NumPy type strings); {@code FillValues} (v2 {@code fill_value});
 *       {@code Compressor}, {@code CodecId}, {@code SimpleCodecs}, {@code UsableCodecs} (numcodecs compressors).
 *   <li>Zarr v3 arrays: {@code ZarrV3Array} (chunks, shards and ranged reads of inner chunks); {@code ZarrV3Metadata}
 *       (the immutable contents of {@code zarr.json}); {@code V3ArrayParser} (reading and checking an array's {@code
 *       zarr.json}); {@code V3DataTypes} ({@code data_type} names and {@code fill_value}s); {@code V3ChunkKeyEncoding}
 *       ({@code default} and {@code v2} chunk keys); {@code V3Codec} (one codec of the chain) and {@code V3Codecs}
 *       (running a chain, sharding included).
 *   <li>Groups: {@code ZarrGroup} (v2, {@code .zgroup} and {@code .zmetadata}); {@code ZarrV3Group} (v3, with inline
 *       consolidated metadata).
 *   <li>Both versions: {@code MetadataDocuments} (a document's URL in messages, its bytes parsed as a JSON object);
 *       {@code Json} (the JSON reader and writer); {@code ArrayCreation} (where a new array may go); {@code
 *       EdgeChunks} (a written chunk's checks, edge chunks padded and clipped); {@code ReadAhead} (how much a read
 *       started ahead asks for and holds); {@code GroupMembers} (a group's member names, given or listed); {@code ElementBytes} and {@code ChunkBytes} (element bytes ↔ chunks);
 *       {@code ChunkBoxes} and {@code BlockStream} (block-wise decoding); {@code IncompleteMark} (the mark of an
 *       array being written); {@code DimensionNames}.
 * </ul>
 */
package io.cubed.storage.zarr;
